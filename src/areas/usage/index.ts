import type { Area } from '../area.js';
import { registerUsage } from './handlers.js';

/** `GET /v1/usage` (inferred). */
export const usage: Area = {
  name: 'usage',
  product: (app, { kinds, inferred }) => {
    if (inferred) registerUsage(app, kinds);
  },
};
