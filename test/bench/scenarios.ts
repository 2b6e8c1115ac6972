import { bigAdvanceScenario } from './big-advance.js';
import { coldStartScenario } from './cold-start.js';
import type { Scenario } from './context.js';
import { controlCalls } from './control-calls.js';
import { errorPaths } from './error-paths.js';
import { inspectorPage } from './inspector-page.js';
import { isolation } from './isolation.js';
import { flatMemory } from './memory-flat.js';
import { mixedMemory } from './memory-mixed.js';
import { postWithBody } from './post-body.js';
import { slowClients } from './slow-clients.js';
import { snapshotMemory } from './snapshot-memory.js';
import { snapshotRestore } from './snapshot-restore.js';
import { floorAndKeysMe } from './speed.js';
import { webhookRetries } from './webhook-advance.js';
import { webhookFairness } from './webhook-fairness.js';
import { resumeWrites } from './writes.js';

/**
 * The scenarios of `npm run bench`, each with the targets of the issue it decides (26 to 36), run in order.
 * A new one (its own file, a `Scenario`) is appended here.
 */
export function scenarios(): Scenario[] {
  return [
    floorAndKeysMe(),
    postWithBody(),
    errorPaths(),
    resumeWrites(),
    flatMemory(),
    mixedMemory(),
    coldStartScenario(),
    isolation(),
    bigAdvanceScenario(),
    webhookRetries(),
    snapshotRestore(),
    snapshotMemory(),
    inspectorPage(),
    controlCalls(),
    webhookFairness(),
    slowClients(),
  ];
}
