/**
 * The CI recipes under examples/ hold together: the keys that Compose and GitHub Actions read are
 * there with the values the emulator expects, the example scenario loads, and the Testcontainers
 * entry is the only code that imports `testcontainers`. test/recipes/containers.test.ts runs them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FLAGS } from '../../src/config.js';
import { testEmulator } from '../helpers.js';
import { EXAMPLES, readCompose, readWorkflow, splitRunnerOptions, waitStep } from './recipes.js';

const KNOWN_VARIABLES = new Set<string>(Object.values(FLAGS).map((f) => f.env));
const ROOT = join(EXAMPLES, '..');

describe('examples/docker-compose.yml', () => {
  const compose = readCompose();

  test('maps port 8710 and mounts ./scenarios where EMULATOR_SCENARIOS_DIR points', () => {
    expect(compose.ports).toEqual(['8710:8710']);
    const [source, target, mode] = compose.volumes[0]!.split(':');
    expect(source).toBe('./scenarios');
    expect(mode).toBe('ro');
    expect(statSync(join(EXAMPLES, source!)).isDirectory()).toBe(true);
    expect(compose.environment.EMULATOR_SCENARIOS_DIR).toBe(target);
  });

  test('EMULATOR_SCENARIO names a file of the mounted folder; every variable is one the emulator reads', () => {
    const scenario = compose.environment.EMULATOR_SCENARIO!;
    expect(readdirSync(join(EXAMPLES, 'scenarios'))).toContain(`${scenario}.json`);
    expect(Object.keys(compose.environment).filter((k) => !KNOWN_VARIABLES.has(k))).toEqual([]);
  });

  test('its healthcheck asks /_control/health on 8710 in exec form, every 2 s, bounded', () => {
    const { test: cmd, intervalMs, timeoutMs, retries } = compose.healthcheck;
    expect(cmd.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
    expect(cmd[3]).toContain("fetch('http://127.0.0.1:8710/_control/health')");
    expect(cmd.filter((arg) => arg.includes(' '))).toEqual([]); // podman's API splits them there
    expect({ intervalMs, timeoutMs }).toEqual({ intervalMs: 2000, timeoutMs: 3000 });
    expect(retries).toBeGreaterThan(0);
  });
});

describe('examples/github-actions.yml', () => {
  const workflow = readWorkflow();

  test('runs the image as a service on port 8710 with a health check on /_control/health', () => {
    expect(workflow.runsOn).toBe('ubuntu-latest');
    expect(workflow.service.ports).toEqual(['8710:8710']);
    const options = splitRunnerOptions(workflow.service.options);
    const flag = (name: string) => options[options.indexOf(name) + 1];
    expect(flag('--health-cmd')).toContain('http://127.0.0.1:8710/_control/health');
    expect(flag('--health-interval')).toBe('2s');
    expect(Number(flag('--health-retries'))).toBeGreaterThan(0);
    expect(Object.keys(workflow.service.env).filter((k) => !KNOWN_VARIABLES.has(k))).toEqual([]);
  });

  test('waits on /_control/health with a bounded loop, then runs npm test with SVC_EMULATOR_URL', () => {
    expect(workflow.env.SVC_EMULATOR_URL).toBe('http://localhost:8710');
    const wait = waitStep(workflow);
    expect(wait.run).toMatch(/for i in \$\(seq 1 \d+\)/);
    expect(wait.run).toContain('curl -sf --max-time 2 "$SVC_EMULATOR_URL/_control/health"');
    expect(workflow.steps.findIndex((s) => s.run === 'npm test')).toBeGreaterThan(wait.index);
    expect(workflow.timeoutMinutes).toBeGreaterThan(0);
  });

  test('options split as the runner splits them: the health command keeps its shell quoting', () => {
    expect(splitRunnerOptions('--a "b c" d')).toEqual(['--a', 'b c', 'd']);
    const cmd = splitRunnerOptions(readWorkflow().service.options)[1]!;
    expect(cmd).toMatch(/^node -e '[^']+'$/);
  });
});

test('examples/scenarios/team-ci.json loads by name from its folder; its key answers', async () => {
  const emu = testEmulator({ scenariosDir: join(EXAMPLES, 'scenarios'), scenario: 'team-ci' });
  const me = await emu.api('GET', '/v1/keys/me', { secret: 'svc_test_team_ci' });
  expect(me.status).toBe(200);
  expect(me.json).toMatchObject({ id: 'key_teamci', name: 'ci' });
  emu.emulator.close();
});

/** The relative imports of a source, and whether it imports `testcontainers`. */
function importsOf(file: string) {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:import|export)[^'"]*?from\s+'([^']+)'/g)].map(
    (m) => m[1]!,
  );
  return {
    local: specifiers
      .filter((s) => s.startsWith('.'))
      .map((s) => normalize(join(dirname(file), s.replace(/\.js$/, '.ts')))),
    testcontainers: specifiers.includes('testcontainers'),
  };
}

test('only svc-emulator/testcontainers imports testcontainers (an optional peer dependency)', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  expect(pkg.exports['./testcontainers']).toEqual({
    types: './dist/tools/testcontainers/index.d.ts',
    import: './dist/tools/testcontainers/index.js',
  });
  expect(pkg.dependencies.testcontainers).toBeUndefined();
  expect(pkg.peerDependenciesMeta.testcontainers).toEqual({ optional: true });

  const reached = (entry: string) => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file) || !existsSync(file)) return;
      seen.add(file);
      for (const next of importsOf(file).local) visit(next);
    };
    visit(join(ROOT, entry));
    return [...seen].filter((f) => importsOf(f).testcontainers);
  };
  expect(reached('src/index.ts')).toEqual([]);
  expect(reached('src/tools/harness/index.ts')).toEqual([]);
  expect(reached('src/main.ts')).toEqual([]);
  expect(reached('src/tools/testcontainers/index.ts')).toEqual([
    join(ROOT, 'src/tools/testcontainers/svc-emulator-container.ts'),
  ]);
});
