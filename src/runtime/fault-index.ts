import type { FaultMatch, FaultRule } from '../contract/faults.js';

/** A rule and its place in creation order, which decides which rule fires first. */
export interface IndexedRule {
  seq: number;
  rule: FaultRule;
}

/** What a call is, as far as the index needs it (`FaultTarget`). */
export interface IndexTarget {
  method: string;
  route: string | null;
  operation: string | null;
  /** Who calls; asked only when a key or account rule could match the call's method. */
  caller(): { accountId: string; keyId: string } | null;
}

const ANY_METHOD = '*';

/** The candidates of a call no rule can match: shared, never written. */
const NONE: IndexedRule[][] = Object.freeze([]) as unknown as IndexedRule[][];

/** Methods are letters only (`FaultMatch`), so `*` never collides with one. */
const methodOf = (m: FaultMatch) => m.method ?? ANY_METHOD;

/**
 * Fault rules sorted by the most specific thing they match, so a call looks at the few rules
 * that can match it instead of every rule (issue 12: 10,000 rules made the median call nine
 * times slower). Each rule sits in exactly one bucket: by method and route template if it names
 * a route, else by method and operation, else by key, else by account, else by method, else in
 * the catch-all list. Buckets keep creation order; `FaultRules.decide` merges a call's buckets
 * by `seq`, then checks every field of each rule as before.
 */
export class FaultIndex {
  private nextSeq = 0;
  /** route template -> method (or `*`) -> rules; nested, so a call builds no key string. */
  private readonly byRoute = new Map<string, Map<string, IndexedRule[]>>();
  /** operationId -> method (or `*`) -> rules. */
  private readonly byOperation = new Map<string, Map<string, IndexedRule[]>>();
  private readonly byKey = new Map<string, IndexedRule[]>();
  private readonly byAccount = new Map<string, IndexedRule[]>();
  private readonly byMethod = new Map<string, IndexedRule[]>();
  /** Rules that name nothing: every call is a candidate (one list, under the key ''). */
  private readonly anything = new Map<string, IndexedRule[]>();
  /**
   * Rules of the key and account buckets that can still fire, by method (`*`: any). Finding a
   * call's key or account bucket needs its caller, which costs a digest of the secret and is
   * also kept for the journal; it is looked up only when such a rule could match the call's
   * method, as when rules were matched one by one.
   */
  private readonly liveCallerRules = new Map<string, number>();

  add(rule: FaultRule): void {
    const entry = { seq: this.nextSeq++, rule };
    const [bucket, key] = this.bucketOf(rule.match, true)!;
    const list = bucket.get(key);
    if (list) list.push(entry);
    else bucket.set(key, [entry]);
    if (isCallerRule(rule) && !exhausted(rule)) this.countCaller(rule, 1);
  }

  remove(rule: FaultRule): void {
    const found = this.bucketOf(rule.match, false);
    if (found) {
      const [bucket, key] = found;
      const list = bucket.get(key)?.filter((e) => e.rule !== rule) ?? [];
      if (list.length > 0) bucket.set(key, list);
      else bucket.delete(key);
    }
    if (isCallerRule(rule) && !exhausted(rule)) this.countCaller(rule, -1);
  }

  /** To be called when a rule's `hits` has just reached its `times`: it can no longer fire. */
  exhausted(rule: FaultRule): void {
    if (isCallerRule(rule)) this.countCaller(rule, -1);
  }

  /**
   * The buckets whose rules may match the call, each in creation order. The target's caller is
   * asked only when a key or account rule could match the call's method. No closure is made per
   * call: this runs on every call while any rule is installed.
   */
  candidates(target: IndexTarget): IndexedRule[][] {
    let lists: IndexedRule[][] = NONE;
    if (target.route !== null) {
      const methods = this.byRoute.get(target.route);
      if (methods) {
        lists = withList(lists, methods.get(target.method));
        lists = withList(lists, methods.get(ANY_METHOD));
      }
    }
    if (target.operation !== null) {
      const methods = this.byOperation.get(target.operation);
      if (methods) {
        lists = withList(lists, methods.get(target.method));
        lists = withList(lists, methods.get(ANY_METHOD));
      }
    }
    const live =
      (this.liveCallerRules.get(ANY_METHOD) ?? 0) + (this.liveCallerRules.get(target.method) ?? 0);
    if (live > 0) {
      const who = target.caller();
      if (who !== null) {
        lists = withList(lists, this.byKey.get(who.keyId));
        lists = withList(lists, this.byAccount.get(who.accountId));
      }
    }
    lists = withList(lists, this.byMethod.get(target.method));
    return withList(lists, this.anything.get(''));
  }

  /**
   * The map a rule's bucket is in, and its key there: nested maps for routes and operations,
   * created when `create` (adding), absent otherwise.
   */
  private bucketOf(
    m: FaultMatch,
    create: boolean,
  ): [Map<string, IndexedRule[]>, string] | undefined {
    const nested = (outer: Map<string, Map<string, IndexedRule[]>>, name: string) => {
      let inner = outer.get(name);
      if (!inner && create) {
        inner = new Map();
        outer.set(name, inner);
      }
      return inner && ([inner, methodOf(m)] as [Map<string, IndexedRule[]>, string]);
    };
    if (m.route !== undefined) return nested(this.byRoute, m.route);
    if (m.operation !== undefined) return nested(this.byOperation, m.operation);
    if (m.key !== undefined) return [this.byKey, m.key];
    if (m.account !== undefined) return [this.byAccount, m.account];
    if (m.method !== undefined) return [this.byMethod, m.method];
    return [this.anything, ''];
  }

  private countCaller(rule: FaultRule, delta: number): void {
    const method = methodOf(rule.match);
    const n = (this.liveCallerRules.get(method) ?? 0) + delta;
    if (n > 0) this.liveCallerRules.set(method, n);
    else this.liveCallerRules.delete(method);
  }
}

/** `lists` with `list` added when there is one; the shared empty `NONE` is never written. */
function withList(lists: IndexedRule[][], list: IndexedRule[] | undefined): IndexedRule[][] {
  if (list === undefined) return lists;
  if (lists === NONE) return [list];
  lists.push(list);
  return lists;
}

/** A rule of the key or account buckets: it names neither a route nor an operation. */
function isCallerRule(rule: FaultRule): boolean {
  const m = rule.match;
  return (
    m.route === undefined &&
    m.operation === undefined &&
    (m.key !== undefined || m.account !== undefined)
  );
}

function exhausted(rule: FaultRule): boolean {
  return rule.times !== undefined && rule.hits >= rule.times;
}
