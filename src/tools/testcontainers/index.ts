/**
 * `svc-emulator/testcontainers`: the emulator's image as a Testcontainers module. The only entry
 * that imports `testcontainers` (an optional peer dependency), so the others never load it.
 */
export {
  type ClockMode,
  CONTAINER_SCENARIOS_DIR,
  EMULATOR_PORT,
  StartedSvcEmulatorContainer,
  SvcEmulatorContainer,
} from './svc-emulator-container.js';
