import type { Area } from '../area.js';
import { registerStatus } from './handlers.js';

/** `GET /v1/status`: the service and the areas it serves (inferred). */
export const status: Area = {
  name: 'status',
  product: (app, { kinds, inferred, served }) => {
    if (inferred) registerStatus(app, kinds, served);
  },
};
