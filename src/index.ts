/** `svc-emulator`: build an emulator in this process (the CLI is `svc-emulator`, `dist/main.js`). */
export {
  createEmulator,
  type Emulator,
  type EmulatorOptions,
  packageVersion,
  resetWorld,
} from './emulator.js';
export type { ScenarioFile } from './world/scenario-schema.js';
