import type { z } from '@hono/zod-openapi';
import type { RunRequest } from '../../engine/records.js';
import type { Spec } from './contract.js';

/** An evaluation's stored request: the SDK spec, plus what every kind keeps. */
export interface EvaluationRequest extends RunRequest {
  spec: z.infer<typeof Spec>;
}
