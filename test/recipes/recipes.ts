/**
 * examples/docker-compose.yml and examples/github-actions.yml, parsed with `yaml`, reduced to the
 * keys the tests rely on (no JSON schema: none can be fetched here). A missing key throws, naming
 * it, so the structural test fails on the key rather than on an undefined later.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export const EXAMPLES = join(import.meta.dirname, '../../examples');

type Doc = Record<string, unknown>;

function at(doc: unknown, path: string): unknown {
  let value = doc;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !(key in value)) {
      throw new Error(`no \`${path}\` (missing \`${key}\`)`);
    }
    value = (value as Doc)[key];
  }
  return value;
}
const str = (doc: unknown, path: string) => {
  const value = at(doc, path);
  if (typeof value !== 'string') throw new Error(`\`${path}\` is not a string`);
  return value;
};
const strings = (doc: unknown, path: string) => {
  const value = at(doc, path);
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw new Error(`\`${path}\` is not a list of strings`);
  }
  return value as string[];
};
const record = (doc: unknown, path: string) => {
  const value = at(doc, path);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`\`${path}\` is not a mapping`);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
};

/** Compose's duration (`2s`, `1m30s`, `500ms`) in milliseconds. */
export function durationMs(text: string): number {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) {
    throw new Error(`not a compose duration: ${text}`);
  }
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
  return parts.reduce((ms, [, n, u]) => ms + Number(n) * unit[u as keyof typeof unit], 0);
}

/** The `emulator` service of examples/docker-compose.yml. */
export function readCompose() {
  const doc: unknown = parse(readFileSync(join(EXAMPLES, 'docker-compose.yml'), 'utf8'));
  const s = 'services.emulator';
  const health = at(doc, `${s}.healthcheck`);
  return {
    image: str(doc, `${s}.image`),
    ports: strings(doc, `${s}.ports`),
    volumes: strings(doc, `${s}.volumes`),
    environment: record(doc, `${s}.environment`),
    healthcheck: {
      test: strings(health, 'test'),
      intervalMs: durationMs(str(health, 'interval')),
      timeoutMs: durationMs(str(health, 'timeout')),
      retries: Number(at(health, 'retries')),
      startPeriodMs: durationMs(str(health, 'start_period')),
    },
  };
}

/** The one job of examples/github-actions.yml: its `emulator` service, env and steps. */
export function readWorkflow() {
  const doc: unknown = parse(readFileSync(join(EXAMPLES, 'github-actions.yml'), 'utf8'));
  const jobs = Object.keys(record(doc, 'jobs'));
  if (jobs.length !== 1) throw new Error(`expected one job, found ${jobs.join(', ')}`);
  const job = `jobs.${jobs[0]}`;
  const steps = at(doc, `${job}.steps`);
  if (!Array.isArray(steps)) throw new Error(`\`${job}.steps\` is not a list`);
  return {
    on: at(doc, 'on'),
    runsOn: str(doc, `${job}.runs-on`),
    timeoutMinutes: Number(at(doc, `${job}.timeout-minutes`)),
    service: {
      image: str(doc, `${job}.services.emulator.image`),
      ports: strings(doc, `${job}.services.emulator.ports`),
      env: record(doc, `${job}.services.emulator.env`),
      options: str(doc, `${job}.services.emulator.options`),
    },
    env: record(doc, `${job}.env`),
    steps: steps as { name?: string; run?: string; uses?: string }[],
  };
}

/**
 * Splits a service's `options` as the Actions runner does before `docker create`: spaces part
 * arguments, double quotes group them (and are dropped), single quotes are plain characters. The
 * runner's backslash rules differ from a shell's, so a backslash is refused here.
 */
export function splitRunnerOptions(options: string): string[] {
  if (options.includes('\\'))
    throw new Error('a backslash in options: the runner splits it unlike a shell');
  const args: string[] = [];
  let current: string | null = null;
  let quoted = false;
  for (const ch of options) {
    if (ch === '"') {
      quoted = !quoted;
      current ??= '';
    } else if (/\s/.test(ch) && !quoted) {
      if (current !== null) args.push(current);
      current = null;
    } else {
      current = (current ?? '') + ch;
    }
  }
  if (quoted) throw new Error('an unclosed double quote in options');
  if (current !== null) args.push(current);
  return args;
}

/** The step that waits on `/_control/health`, and where it is among the steps. */
export function waitStep(workflow: ReturnType<typeof readWorkflow>) {
  const index = workflow.steps.findIndex((s) => s.run?.includes('/_control/health'));
  if (index < 0) throw new Error('no step runs a health wait on /_control/health');
  return { index, run: workflow.steps[index]!.run! };
}
