/**
 * A throwaway kind, as a new kind's folder would hold it: its address, its create and resource
 * schemas, and the shared routes made for it. Nothing outside this folder names it; the test
 * registers it (test/kinds/new-kind.test.ts).
 */
import { z } from '@hono/zod-openapi';
import { runRoutes } from '../../../src/engine/contract/run-routes.js';
import {
  RunCreateCommon,
  type RunKindAddress,
  runResource,
  StepCounter,
} from '../../../src/engine/contract/run-shapes.js';

export const ADDRESS = {
  name: 'widget',
  prefix: 'wid',
  collection: 'widgets',
  scope: 'widgets',
  tag: 'Widgets',
  tagDescription: 'Polish widgets, one coat at a time.',
} as const satisfies RunKindAddress;

export const CreateWidgetBody = z
  .object({ coats: z.number().int().min(1).max(20), ...RunCreateCommon })
  .strict()
  .openapi('CreateWidgetRequest');

export const Widget = runResource(
  'widget',
  { coats: StepCounter },
  z.object({ shine: z.number(), coats: z.number().int() }).openapi('WidgetResult'),
  'the polished widget (`shine`) and the coats applied.',
);

export const widgetRoutes = runRoutes({
  ...ADDRESS,
  createBody: CreateWidgetBody,
  resource: Widget,
  yields: 'a polished widget',
});
