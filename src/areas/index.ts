/**
 * Every area besides the run kinds (src/kinds/index.ts), in the order the product app registers
 * their routes: adding an area is a folder and a line here (docs/development.md). The product
 * app, the control app and the store are assembled from this list.
 */

import { accounts } from './accounts/index.js';
import type { Area } from './area.js';
import { bundles } from './bundles/index.js';
import { catalog } from './catalog/index.js';
import { clientReport } from './client-report/index.js';
import { events } from './events/index.js';
import { faults } from './faults/index.js';
import { operations } from './operations/index.js';
import { requests } from './requests/index.js';
import { runs } from './runs/index.js';
import { scenarios } from './scenarios/index.js';
import { snapshots } from './snapshots/index.js';
import { status } from './status/index.js';
import { usage } from './usage/index.js';
import { webhooks } from './webhooks/index.js';

export const AREAS: readonly Area[] = [
  status,
  runs,
  accounts,
  scenarios,
  webhooks,
  requests,
  usage,
  events,
  catalog,
  operations,
  faults,
  snapshots,
  clientReport,
  bundles,
];
