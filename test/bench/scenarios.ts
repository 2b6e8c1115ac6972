import { coldStartScenario } from './cold-start.js';
import type { Scenario } from './context.js';
import { errorPaths } from './error-paths.js';
import { inspectorPage } from './inspector-page.js';
import { isolation } from './isolation.js';
import { flatMemory } from './memory-flat.js';
import { mixedMemory } from './memory-mixed.js';
import { postWithBody } from './post-body.js';
import { snapshotRestore } from './snapshot-restore.js';
import { floorAndKeysMe } from './speed.js';
import { webhookRetries } from './webhook-advance.js';
import { resumeWrites } from './writes.js';

/**
 * The scenarios of `npm run bench`, each with the targets of issues 26, 27 and 36 it decides, run in order.
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
    webhookRetries(),
    snapshotRestore(),
    inspectorPage(),
  ];
}
