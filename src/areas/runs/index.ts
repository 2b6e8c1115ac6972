import { registerRuns } from '../../engine/routes/control-runs.js';
import { registerSeeding } from '../../engine/routes/control-seeding.js';
import { registerRunKind } from '../../engine/routes/runs.js';
import type { Area } from '../area.js';

/** Runs of every registered kind, on the one engine (their routes are the engine's). */
export const runs: Area = {
  name: 'runs',
  // Under --strict only each kind's documented routes.
  product: (app, { kinds, inferred }) => {
    for (const registered of kinds.list)
      registerRunKind(app, registered, inferred ? 'all' : 'documented');
  },
  control: [
    { name: 'seeding', register: (app, { deps }) => registerSeeding(app, deps) },
    { name: 'runs', register: (app, { deps }) => registerRuns(app, deps) },
  ],
};
