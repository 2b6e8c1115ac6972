/** `firstEventAt` (src/domain/run-schedule.ts) answers what `scheduleEvents` lists first. */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { buildSchedule, firstEventAt, scheduleEvents } from '../../src/domain/run-schedule.js';

const phase = fc.record({
  name: fc.constantFrom('materializing', 'running', 'verifying', 'packaging', 'p'),
  ms: fc.integer({ min: 0, max: 10_000 }),
  steps: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined }),
});

test('the first event of a schedule is the first scheduleEvents lists, for any schedule', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 42 }),
      fc.integer({ min: 0, max: 5000 }),
      fc.array(phase, { minLength: 0, maxLength: 6 }),
      fc.option(
        fc.record({
          phase: fc.constantFrom('running', 'p', 'verifying'),
          afterSteps: fc.option(fc.nat(1200), { nil: undefined }),
        }),
        { nil: undefined },
      ),
      (start, queue, phases, failure) => {
        const schedule = buildSchedule(start, queue, phases, failure);
        expect(firstEventAt(schedule)).toBe(scheduleEvents(schedule)[0]!.at);
      },
    ),
    { numRuns: 2000 },
  );
});
