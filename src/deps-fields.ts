/**
 * The modules that add a field to Deps from their own folders (engine/deps.ts), imported by
 * emulator.ts for their declarations: without them the package's emulator.d.ts names only
 * engine/deps.js, and a TypeScript user of `emulator.deps` sees no `webhooks`, `journal`, ...
 * They are imported by value elsewhere before this, so no module is evaluated in another order.
 */
import './areas/faults/fault-rules.js';
import './areas/requests/coverage-counts.js';
import './areas/requests/journal.js';
import './areas/webhooks/subscribe.js';
import './areas/scenarios/scenario-file.js';
