/** engine/deps.ts's name for the scenario file's type (it lives in areas/scenarios/scenario-file.ts). */
export type { ScenarioFile } from '../areas/scenarios/scenario-file.js';
