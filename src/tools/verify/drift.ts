/**
 * `svc-emulator drift`: a cassette's requests replayed, in order, against a fresh in-process
 * emulator; each answer compared with the recorded one (src/tools/verify/compare-answers.ts). Ids the
 * service answered are mapped to the ones the emulator answered, and the account's clock moves
 * by the recorded gaps between requests.
 */
import { createEmulator, type Emulator } from '../emulator.js';
import { type Exchange, readCassette } from './cassette.js';
import { compareAnswers } from './compare-answers.js';
import type { Contract } from './contract.js';
import { SecretSet } from './mask.js';
import { buildReport } from './report.js';
import type { OperationReport, Report } from './report-types.js';
import { BAD_KEY } from './session.js';
import { showAnswer } from './shown.js';
import { parseJson } from './target-client.js';

export interface DriftOptions {
  cassette: string;
  key?: string;
  seed: string;
  scenario: string;
  strict: boolean;
  strictVersions: boolean;
}

/** drift could not run (exit 2): no key to replay with. */
export class DriftError extends Error {}

const ID = /^[a-z]+_[A-Za-z0-9]{10,}$/;
/** A key as the cassette keeps it: `Bearer ***N`, the Nth key of the session (cassette.ts). */
const LABEL = /^Bearer \*\*\*(\d+)$/;

/** Keys of the cassette that were only ever refused (401): replayed as a key that is refused too. */
function refusedLabels(exchanges: Exchange[]): Set<string> {
  const statuses = new Map<string, number[]>();
  for (const e of exchanges) {
    const label = LABEL.exec(e.request.headers.authorization ?? '')?.[1];
    if (label) statuses.set(label, [...(statuses.get(label) ?? []), e.response.status]);
  }
  return new Set([...statuses].filter(([, s]) => s.every((x) => x === 401)).map(([l]) => l));
}

/**
 * Service ids met in `recorded` at the places where `replayed` has other ids: the mapping. Not
 * from lists, whose items need not be the same ones in the same order.
 */
function learnIds(recorded: unknown, replayed: unknown, ids: Map<string, string>): void {
  if (typeof recorded === 'string' && typeof replayed === 'string') {
    if (recorded !== replayed && ID.test(recorded) && ID.test(replayed))
      ids.set(recorded, replayed);
  } else if (Array.isArray(recorded) && Array.isArray(replayed)) {
    for (const [i, r] of recorded.entries()) learnIds(r, replayed[i], ids);
  } else if (recorded && replayed && typeof recorded === 'object' && typeof replayed === 'object') {
    if ((recorded as { object?: unknown }).object === 'list') return;
    const b = replayed as Record<string, unknown>;
    for (const [k, v] of Object.entries(recorded)) if (k in b) learnIds(v, b[k], ids);
  }
}

function substitute(text: string, ids: Map<string, string>): string {
  let out = text;
  for (const [from, to] of ids) out = out.split(from).join(to);
  return out;
}

/** The key the emulator replays for the recorded one: the given, else the scenario's first. */
function replayKey(emulator: Emulator, key: string | undefined): string {
  const fixed = emulator.deps.scenarios.loaded.accounts?.flatMap((a) => a.keys ?? []);
  const secret = key ?? fixed?.find((k) => k.secret)?.secret;
  if (!secret) throw new DriftError('the scenario has no key with a fixed secret: pass --key');
  if (!emulator.deps.store.credentials(secret))
    throw new DriftError(
      `--key is not a key of the scenario's world (${emulator.deps.scenarios.loaded.name})`,
    );
  return secret;
}

/** Moves the key's account clock forward by `ms` (the wall time between two recorded requests). */
async function advance(emulator: Emulator, key: string, ms: number): Promise<void> {
  const account = emulator.deps.store.credentials(key)?.account;
  if (!account || !(ms > 0)) return;
  await emulator.app.request(`/_control/accounts/${account.id}/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seconds: ms / 1000 }),
  });
}

export async function runDrift(options: DriftOptions, contract: Contract): Promise<Report> {
  const exchanges = readCassette(options.cassette);
  const emulator = createEmulator({
    seed: options.seed,
    scenario: options.scenario,
    strict: options.strict,
    strictVersions: options.strictVersions,
    clock: 'manual',
    webhooks: false,
  });
  try {
    const key = replayKey(emulator, options.key);
    const refused = refusedLabels(exchanges);
    const secrets = new SecretSet();
    secrets.add(key);
    const ids = new Map<string, string>();
    const reports = new Map<string, OperationReport>();
    let lastAt: number | undefined;
    for (const e of exchanges) {
      const at = Date.parse(e.at);
      if (lastAt !== undefined && Number.isFinite(at)) await advance(emulator, key, at - lastAt);
      if (Number.isFinite(at)) lastAt = at;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(e.request.headers)) {
        const label = LABEL.exec(value)?.[1];
        headers[name] = label ? `Bearer ${refused.has(label) ? BAD_KEY : key}` : value;
      }
      const body =
        e.request.body === undefined
          ? undefined
          : substitute(
              typeof e.request.body === 'string' ? e.request.body : JSON.stringify(e.request.body),
              ids,
            );
      const path = substitute(e.request.path, ids);
      const res = await emulator.app.request(path, { method: e.request.method, headers, body });
      const bytes = Buffer.from(await res.arrayBuffer());
      const answerHeaders = Object.fromEntries(res.headers);
      const answer = {
        status: res.status,
        headers: answerHeaders,
        bytes,
        json: parseJson(answerHeaders, bytes),
      };
      const shown = showAnswer(answer, secrets, { full: true });
      learnIds(e.response.body, answer.json, ids);
      const verdict = compareAnswers(e.response, shown);
      reportFor(reports, contract, e).checks.push({
        check: `exchange ${e.seq}`,
        request: {
          method: e.request.method,
          url: path,
          headers: e.request.headers,
          ...(e.request.body === undefined ? {} : { body: e.request.body }),
        },
        answer: e.response,
        emulator: showAnswer(answer, secrets),
        ...verdict,
      });
    }
    return buildReport(
      {
        tool: 'drift',
        target: options.cassette,
        contract: `svc-emulator ${contract.version} (seed ${options.seed}, scenario ${options.scenario}${options.strict ? ', strict' : ''})`,
        requests: exchanges.length,
        options: {
          seed: options.seed,
          scenario: options.scenario,
          strict: options.strict,
          strict_versions: options.strictVersions,
        },
        notes: [],
      },
      [...reports.values()],
    );
  } finally {
    emulator.close();
  }
}

/** The report of the exchange's operation (as recorded), made on first use. */
function reportFor(reports: Map<string, OperationReport>, contract: Contract, e: Exchange) {
  const name = e.operation ?? `${e.request.method} ${e.request.path.split('?')[0]}`;
  let r = reports.get(name);
  if (!r) {
    const op = contract.operations.find((o) => o.operationId === e.operation);
    r = {
      operation: name,
      method: e.request.method,
      path: op?.path ?? e.request.path.split('?')[0]!,
      inferred: op?.inferred ?? false,
      checks: [],
      not_run: [],
    };
    reports.set(name, r);
  }
  return r;
}
