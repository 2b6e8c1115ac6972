import type { Area } from '../area.js';
import { registerDiagnostics } from './control-faults.js';
import { registerSweeps } from './control-sweeps.js';

/** Fault rules and the sweeps that try every fault on a route. */
export const faults: Area = {
  name: 'faults',
  control: [
    { name: 'faults', register: (app, { deps }) => registerDiagnostics(app, deps) },
    { name: 'sweeps', register: (app, { deps }) => registerSweeps(app, deps) },
  ],
};
