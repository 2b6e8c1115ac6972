/** `firstEventAt` (src/engine/timeline/schedule.ts) answers what `scheduleEvents` lists first. */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { firstEventAt, scheduleEvents } from '../../src/engine/timeline/schedule.js';
import { anySchedule } from './schedule-arbitrary.js';

test('the first event of a schedule is the first scheduleEvents lists, for any schedule', () => {
  fc.assert(
    fc.property(anySchedule(0), (schedule) => {
      expect(firstEventAt(schedule)).toBe(scheduleEvents(schedule)[0]!.at);
    }),
    { numRuns: 2000 },
  );
});
