import type { RegisteredKind } from '../../../src/engine/run-kind.js';
import { widgetRoutes } from './contract.js';
import { widgetKind } from './kind.js';

/** The registration: what `src/kinds/index.ts` would list in one line. */
export const widgets: RegisteredKind = {
  kind: widgetKind,
  routes: widgetRoutes,
};
