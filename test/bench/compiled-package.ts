import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The newest modification time of any file under `dir`. */
function newest(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .reduce((t, e) => Math.max(t, statSync(join(e.parentPath, e.name)).mtimeMs), 0);
}

/** The compiled package's entry point, where it came from, and how to remove a temporary build. */
export interface CompiledPackage {
  main: string;
  source: string;
  cleanup(): void;
}

/**
 * The package as users start it, `node dist/main.js`: `dist/main.js` when it is newer than every
 * file of `src/`, else a build into a temporary directory beside links to `package.json`,
 * `fixtures/`, `scenarios/` and `node_modules/` (the emulator finds them as `dist/..`), built as
 * `npm run build` builds (`scripts/build.mjs`: the bin is one bundle). `BENCH_DIST` names another
 * `dist/` to measure instead (its `..` must hold package.json, fixtures/, scenarios/, node_modules/).
 */
export function compiledPackage(): CompiledPackage {
  // Another build to measure, e.g. main's, to compare a change against it in the same way.
  const other = process.env.BENCH_DIST;
  if (other) return { main: join(other, 'main.js'), source: `BENCH_DIST ${other}`, cleanup() {} };
  const dist = join(ROOT, 'dist', 'main.js');
  if (existsSync(dist) && statSync(dist).mtimeMs >= newest(join(ROOT, 'src'))) {
    return { main: dist, source: 'dist/main.js', cleanup() {} };
  }
  const dir = mkdtempSync(join(os.tmpdir(), 'svc-emulator-bench-'));
  for (const name of ['package.json', 'fixtures', 'scenarios', 'node_modules']) {
    symlinkSync(join(ROOT, name), join(dir, name));
  }
  // The build `npm run build` runs: tsc, then the bin as one bundle.
  const args = [join(ROOT, 'scripts', 'build.mjs'), join(dir, 'dist')];
  const built = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stdout}${built.stderr}`);
  const why = existsSync(dist) ? 'dist/ is older than src/' : 'dist/ is absent';
  return {
    main: join(dir, 'dist', 'main.js'),
    source: `${why}: built with scripts/build.mjs into ${dir}`,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
