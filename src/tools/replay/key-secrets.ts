import type { Bundle } from '../../areas/bundles/bundle-read.js';
import { REPLAY_CONTROL_TOKEN, replaySecret } from '../../areas/bundles/labels.js';
import type { Emulator } from '../emulator.js';

const LABEL = /\{\{(key|unknown-key|control-token|wrong-control-token|masked)(?::([\w-]+))?\}\}/g;

/**
 * The secrets the labels stand for on replay: a key in the world at the mark has its replay
 * secret; one a scenario made on a reset, the bundle's scenario copy's; one a call made, the
 * secret its answer showed.
 */
export class KeySecrets {
  private readonly learned = new Map<string, string>();
  private readonly scenario: string[] = [];

  constructor(
    private readonly emulator: Emulator,
    bundle: Bundle,
  ) {
    const accounts = (
      bundle.manifest.scenario as { accounts?: { keys?: { secret?: unknown }[] }[] }
    ).accounts;
    for (const acct of accounts ?? [])
      for (const key of acct.keys ?? [])
        if (typeof key.secret === 'string') this.scenario.push(key.secret);
  }

  /** The secret of key `id` that authenticates now, else its replay secret (which does not). */
  private secret(id: string): string {
    const { store } = this.emulator.deps;
    const learned = this.learned.get(id);
    for (const candidate of [learned, replaySecret(id), ...this.scenario])
      if (candidate && store.credentials(candidate)?.key.id === id) return candidate;
    return learned ?? replaySecret(id);
  }

  unlabel(text: string): string {
    return text.replace(LABEL, (_all, label: string, arg: string | undefined) => {
      if (label === 'key') return this.secret(arg!);
      if (label === 'unknown-key') return `svc_replay_unknown_${arg}`;
      if (label === 'control-token') return REPLAY_CONTROL_TOKEN;
      if (label === 'wrong-control-token') return `wrong-control-token-${arg}`;
      return 'masked';
    });
  }

  /** Keys an answer showed with their secrets (`{id: "key_...", secret: "svc_..."}`). */
  learn(text: string): void {
    if (!text.includes('"secret"')) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) for (const item of v) walk(item);
      else if (v !== null && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (typeof o.id === 'string' && typeof o.secret === 'string')
          this.learned.set(o.id, o.secret);
        for (const inner of Object.values(o)) walk(inner);
      }
    };
    walk(value);
  }
}
