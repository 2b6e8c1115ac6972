import type { Area } from '../area.js';
import { registerCatalog } from './handlers.js';

/** The catalog: robots, tasks, environments, object sets, policies, hardware tiers, datasets. */
export const catalog: Area = {
  name: 'catalog',
  product: (app, { inferred }) => {
    if (inferred) registerCatalog(app);
  },
};
