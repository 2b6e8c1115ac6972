import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/**
 * The better-sqlite3 build for this Node.js. From Node 24.19, a statement or database of
 * better-sqlite3 12 that the garbage collector finalizes outside a V8 context aborts the process
 * (`Assertion failed: (env) != nullptr` in `RemoveEnvironmentCleanupHook`); 13 (Node-API) does
 * not, but it needs Node 22 and crashes on Node 20. So Node 22 and later load 13, installed as
 * the optional dependency `better-sqlite3-napi`, and Node 20 (or an install without optional
 * dependencies) loads 12. Both have the same API.
 */
function loadDriver(): typeof BetterSqlite3 {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 22) {
    try {
      return require('better-sqlite3-napi') as typeof BetterSqlite3;
    } catch {
      // Not installed (e.g. `npm install --omit=optional`): fall back to 12.
    }
  }
  return require('better-sqlite3') as typeof BetterSqlite3;
}

export const Database: typeof BetterSqlite3 = loadDriver();
