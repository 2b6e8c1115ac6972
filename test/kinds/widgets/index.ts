import type { RegisteredKind, RunKind } from '../../../src/engine/run-kind.js';
import { widgetRoutes } from './contract.js';
import { widgetKind } from './kind.js';

/** The registration: what `src/kinds/index.ts` would list in one line. */
export const widgets: RegisteredKind = {
  kind: widgetKind as unknown as RunKind,
  routes: widgetRoutes,
};
