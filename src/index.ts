/** `svc-emulator`: build an emulator in this process (the CLI is `svc-emulator`, `dist/main.js`). */

export type { ScenarioFile } from './areas/scenarios/scenario-file.js';
export { type EmulatorOptions, packageVersion } from './emulator.js';
export { createEmulator, type Emulator } from './tools/emulator.js';
export { resetWorld } from './world/reset.js';
