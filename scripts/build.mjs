// `npm run build`: compiles src/ to dist/ with tsc (the library, dist/index.js and
// dist/tools/harness/, with declarations), then writes the bin, dist/main.js, as one esbuild bundle of
// src/main.ts with its dependencies (hono, zod, @hono/zod-openapi, ...), and the settle worker's
// entry beside it, dist/settle-worker.js. Node 20 loads ES modules
// one file at a time with no compile cache, and resolving, reading and linking some 450 of them
// was about 180 ms of each cold start (issue 12 item 6, docs/development.md). better-sqlite3
// (a native addon) stays in node_modules and is found from dist/, as the library finds it;
// scenarios/ and fixtures/ are found as dist/../. Then the CommonJS entries, dist/index.cjs and
// dist/testing.cjs, for `require()` (Node 20 cannot require an ES module), and Swagger UI's files
// in dist/swagger-ui/ (swagger-ui-dist is a development dependency: its @scarf/scarf telemetry
// install script stays out of users' installs). Last, the inspector's page and browser modules
// (src/tools/inspector/ui/, plain files with no build step) into dist/tools/inspector/ui/. `npm ci` runs it (the
// `prepare` script, after a clean), so a clone's `npx svc-emulator` has a bin; so does `npm pack`.
// Usage: node scripts/build.mjs [outDir]   (default dist; test/bench builds into a temporary one)
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const outDir = resolve(process.argv[2] ?? join(ROOT, 'dist'));

const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const args = [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', outDir];
const compiled = spawnSync(process.execPath, args, { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

/**
 * zod's `z.locales` namespace: its error messages in some 60 languages, about a quarter of
 * the bundle's bytes, which Node parses at every start. The emulator speaks English only (zod's
 * default, `en`, imported by zod itself) and nothing in the bin reads `z.locales`, so the bundle
 * keeps `en` alone in it. The library in dist/ imports zod unchanged.
 */
const zodLocalesEnOnly = {
  name: 'zod-locales-en-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)
        ? { path: join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * yaml's `node` entry is CommonJS that requires `process`, which an ES module bundle cannot do at
 * run time ("Dynamic require of process"); its ES module build (the one browsers get) is the same
 * parser without that require, so the bin bundles that one.
 */
const yamlEsm = {
  name: 'yaml-esm',
  setup(b) {
    const pkg = createRequire(import.meta.url).resolve('yaml/package.json');
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: join(dirname(pkg), 'browser', 'index.js') }));
  },
};

// The settle worker's entry (src/settle-worker.ts) is a bundle of its own beside the bin,
// dist/settle-worker.js, over tsc's output of it: the bin, the CommonJS entries and the library
// (dist/emulator.js) all start it from there.
await build({
  entryPoints: {
    main: join(ROOT, 'src', 'main.ts'),
    'settle-worker': join(ROOT, 'src', 'settle-worker.ts'),
  },
  outdir: outDir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // src/core/sqlite/driver.ts picks one of the two at run time (both are addons).
  external: ['better-sqlite3', 'better-sqlite3-napi'],
  plugins: [zodLocalesEnOnly, yamlEsm],
  sourcemap: true,
  logLevel: 'warning',
});
// The bin runs as a program (its first line is src/main.ts's `#!/usr/bin/env node`): npm keeps the
// mode in the tarball, and `npx svc-emulator` in a checkout runs this very file, which npm links
// once and does not make executable again after a rebuild (issue 35).
chmodSync(join(outDir, 'main.js'), 0o755);

/**
 * `require('svc-emulator')` and `require('svc-emulator/testing')`: the two entries as CommonJS, at
 * the top of dist/ as the bin is (the code finds scenarios/, fixtures/ and Swagger UI from its own
 * file's folder). Dependencies stay `require()`s of node_modules: each has a CommonJS build.
 */
await build({
  entryPoints: {
    index: join(ROOT, 'src', 'index.ts'),
    testing: join(ROOT, 'src', 'tools', 'harness', 'index.ts'),
  },
  outdir: outDir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  // CommonJS has no import.meta: its file URL from __filename.
  define: {
    'import.meta.url': '__svcEmulatorFileUrl',
    'import.meta.dirname': '__dirname',
    'import.meta.filename': '__filename',
  },
  banner: {
    js: 'const __svcEmulatorFileUrl = require("node:url").pathToFileURL(__filename).href;',
  },
  sourcemap: true,
  logLevel: 'warning',
});

// Swagger UI's two files, with its license and notice (Apache-2.0), for the /docs pages.
const swaggerUiDist = dirname(require.resolve('swagger-ui-dist/package.json'));
mkdirSync(join(outDir, 'swagger-ui'), { recursive: true });
for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE', 'NOTICE'])
  copyFileSync(join(swaggerUiDist, file), join(outDir, 'swagger-ui', file));

// The inspector (`/_control/ui`): served from dist/tools/inspector/ui/ by the library and the bin alike.
cpSync(join(ROOT, 'src', 'tools', 'inspector', 'ui'), join(outDir, 'tools', 'inspector', 'ui'), {
  recursive: true,
});
