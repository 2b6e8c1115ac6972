import type { RunRequest } from '../../domain/records.js';

/** A twin's stored request: the create body with its defaults resolved. */
export interface TwinRequest extends RunRequest {
  dataset: string;
  episode: number;
  hardware_tier: string;
  /**
   * Scene parts, from the episode's length when it was created (`plan` sees no catalog): the
   * steps of `reconstructing`.
   */
  parts: number;
  /**
   * A twin seeded through the control API keeps the listing it was seeded with (generated or
   * given): its length, the body's `file_count` once it has succeeded. Absent for created twins.
   */
  seeded_file_count?: number;
}
