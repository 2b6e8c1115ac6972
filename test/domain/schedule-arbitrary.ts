import fc from 'fast-check';
import { buildSchedule } from '../../src/engine/timeline/schedule.js';

const phase = fc.record({
  name: fc.constantFrom('materializing', 'running', 'verifying', 'packaging', 'p'),
  ms: fc.integer({ min: 0, max: 10_000 }),
  steps: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined }),
});

/**
 * Any schedule `buildSchedule` makes: a start, a queue, `minPhases` to 6 phases and perhaps a
 * planned failure, for the property tests of what reads schedules.
 */
export function anySchedule(minPhases: number) {
  return fc
    .tuple(
      fc.integer({ min: 0, max: 2 ** 42 }),
      fc.integer({ min: 0, max: 5000 }),
      fc.array(phase, { minLength: minPhases, maxLength: 6 }),
      fc.option(
        fc.record({
          phase: fc.constantFrom('running', 'p', 'verifying'),
          afterSteps: fc.option(fc.nat(1200), { nil: undefined }),
        }),
        { nil: undefined },
      ),
    )
    .map(([start, queue, phases, failure]) => buildSchedule(start, queue, phases, failure));
}
