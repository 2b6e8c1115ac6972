import type { Area } from '../area.js';
import { registerAccounts } from './control.js';
import { registerClock } from './control-clock.js';
import { registerKeys } from './keys-handlers.js';

/** Accounts and their keys and clocks. */
export const accounts: Area = {
  name: 'accounts',
  product: (app) => registerKeys(app),
  control: [
    { name: 'accounts', register: (app, { deps }) => registerAccounts(app, deps) },
    { name: 'clock', register: (app, { deps }) => registerClock(app, deps) },
  ],
};
