/** `svc-emulator/testing`: run the emulator inside a test suite; the harness's whole public API. */
export {
  type ControlClient,
  type ControlClientOptions,
  ControlError,
  createControlClient,
} from './control-client.js';
export type * from './control-types.js';
export type { ClientReportScope } from './lab-methods.js';
export { type RunningEmulator, type StartOptions, startEmulator } from './start-emulator.js';
export type { NewAccountOptions, TestAccount } from './test-account.js';
