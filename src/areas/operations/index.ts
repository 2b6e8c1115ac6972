import type { Area } from '../area.js';
import { registerOperations } from './handlers.js';

/** `GET /v1/operations/{operation_id}` (inferred). */
export const operations: Area = {
  name: 'operations',
  product: (app, { kinds, inferred }) => {
    if (inferred) registerOperations(app, kinds);
  },
};
