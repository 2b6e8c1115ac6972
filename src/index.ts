/** `svc-emulator`: build an emulator in this process (the CLI is `svc-emulator`, `dist/main.js`). */

export type { ScenarioFile } from './areas/scenarios/scenario-file.js';
export {
  createEmulator,
  type Emulator,
  type EmulatorOptions,
  packageVersion,
} from './emulator.js';
export { resetWorld } from './world/reset.js';
