import { createRequire } from 'node:module';
import type { DatabaseConstructor } from './sqlite.js';

const require = createRequire(import.meta.url);

/**
 * The better-sqlite3 build for this Node.js: 12 aborts on Node 24.19+ when the collector finalizes
 * a statement outside a V8 context; 13 (Node-API, `better-sqlite3-napi`) does not, needs Node 22.
 * Node 22+ loads 13 when installed, else 12; both have the same API.
 */
function loadDriver(): DatabaseConstructor {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 22) {
    try {
      return require('better-sqlite3-napi') as DatabaseConstructor;
    } catch {
      // Not installed (e.g. `npm install --omit=optional`): fall back to 12.
    }
  }
  return require('better-sqlite3') as DatabaseConstructor;
}

export const Database: DatabaseConstructor = loadDriver();
