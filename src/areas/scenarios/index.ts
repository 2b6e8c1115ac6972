import type { Area } from '../area.js';
import { registerAssets } from './assets-handlers.js';
import { createUserAssetRepo } from './assets-store.js';
import { registerAssetSeeding } from './control-seeding.js';
import { registerScenarios } from './handlers.js';
import { createScenarioRepo } from './store.js';

/** Scenarios and the user assets (environments, objects) they name. */
export const scenarios: Area = {
  name: 'scenarios',
  product: (app, { inferred }) => {
    registerScenarios(app, inferred);
    if (inferred) registerAssets(app);
  },
  control: [
    { name: 'asset seeding', register: (app, { deps }) => registerAssetSeeding(app, deps) },
  ],
  repositories: (db) => ({
    scenarios: createScenarioRepo(db),
    userAssets: createUserAssetRepo(db),
  }),
};
