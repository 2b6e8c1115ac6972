import type { RunRequest } from '../../engine/records.js';

/** A twin's stored request: the create body with its defaults resolved. */
export interface TwinRequest extends RunRequest {
  dataset: string;
  episode: number;
  hardware_tier: string;
  /** Scene parts (the steps of `reconstructing`), from the episode's length at creation. */
  parts: number;
  /** A seeded twin's listing length, its `file_count` once succeeded; absent for created twins. */
  seeded_file_count?: number;
}
