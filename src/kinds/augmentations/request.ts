import type { RunRequest } from '../../engine/records.js';

/** An augmentation's stored request: the create body with its defaults resolved. */
export interface AugmentationRequest extends RunRequest {
  dataset: string;
  config: { episode_count: number; cameras: string[]; variations: string[] };
  hardware_tier: string;
}
