/**
 * JSON text read in place, building nothing (issue 36): 300,000 objects under 1 MiB took
 * `JSON.parse` 50 to 180 ms and as much again in GC; a count over them is one pass here. Only
 * what `JSON.parse` accepts (else `NotJson`): whitespace is space, tab, CR and LF; strings hold no
 * control character; numbers have no leading zero, `+` or bare `.`.
 */

/** The text is not what `JSON.parse` accepts. */
export class NotJson extends Error {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;

/** What a value is, as `typeof` and `Array.isArray` tell it once parsed. */
export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

const LITERALS = ['true', 'false', 'null'] as const;
const ESCAPES = '"\\/bfnrt'; // What a backslash may escape, but `u`.

const isDigit = (c: number) => c >= ZERO && c <= NINE;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/**
 * A cursor over JSON text. `value()` passes over any value; `open`, `key` and `next` walk an
 * object's or array's members, each read with `value()` or looked into.
 * @example const s = new JsonScan(text); if (s.open(OPEN_BRACE)) do { if (s.key() === 'n') n = s.numberValue(); else s.value(); } while (s.next(CLOSE_BRACE)); s.end();
 */
export class JsonScan {
  private i = 0;
  /** `skipValue`'s stack of closing brackets, kept between calls. */
  private readonly closers: number[] = [];

  constructor(private readonly text: string) {}

  private fail(at = this.i): never {
    throw new NotJson(`not JSON at ${at}`);
  }

  private space(): void {
    const t = this.text;
    let i = this.i;
    for (let c = t.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; )
      c = t.charCodeAt(++i);
    this.i = i;
  }

  /** The colon after a key. */
  private colon(): void {
    this.space();
    if (this.text.charCodeAt(this.i) !== COLON) this.fail();
    this.i++;
  }

  /** The next value's type, without reading it. */
  peek(): JsonType {
    this.space();
    const c = this.text.charCodeAt(this.i);
    if (c === OPEN_BRACE) return 'object';
    if (c === OPEN_BRACKET) return 'array';
    if (c === QUOTE) return 'string';
    if (c === MINUS || isDigit(c)) return 'number';
    if (c === 0x74 || c === 0x66) return 'boolean';
    if (c === 0x6e) return 'null';
    return this.fail();
  }

  /** Whether the next value starts with this character (`{`, `[`). */
  at(c: number): boolean {
    this.space();
    return this.text.charCodeAt(this.i) === c;
  }

  /** Passes over the next value; its type. */
  value(): JsonType {
    const type = this.peek();
    this.skipValue();
    return type;
  }

  /** The text of the next value, passed over. */
  valueText(): string {
    this.space();
    const start = this.i;
    this.value();
    return this.text.slice(start, this.i);
  }

  /**
   * Passes over the next value, however deep, without recursing: one loop over the characters,
   * with the closing brackets it is in on a stack. The number of members of that value if it is
   * an object or an array, else 0.
   */
  private skipValue(): number {
    const t = this.text;
    const closers = this.closers;
    closers.length = 0;
    let members = 0;
    let i = this.i;
    for (;;) {
      // A value starts here.
      let c = t.charCodeAt(i);
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = t.charCodeAt(++i);
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        let d = t.charCodeAt(++i);
        while (d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) d = t.charCodeAt(++i);
        if (d !== c + 2) {
          if (closers.length === 0) members = 1;
          closers.push(c + 2);
          if (c === OPEN_BRACE) i = this.keyAt(i);
          continue;
        }
        i++;
      } else {
        this.i = i;
        if (c === QUOTE) this.skipString();
        else if (c === MINUS || isDigit(c)) this.skipNumber();
        else this.literal();
        i = this.i;
      }
      // After a value: closing brackets, then a comma or the end of the value skipped.
      for (;;) {
        const close = closers[closers.length - 1];
        if (close === undefined) {
          this.i = i;
          return members;
        }
        c = t.charCodeAt(i);
        while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = t.charCodeAt(++i);
        if (c === close) {
          i++;
          closers.pop();
        } else if (c === COMMA) {
          i++;
          if (closers.length === 1) members++;
          if (close === CLOSE_BRACE) i = this.keyAt(i);
          break;
        } else this.fail(i);
      }
    }
  }

  /** Passes over a key and its colon from `at`; where its value starts. */
  private keyAt(at: number): number {
    this.i = at;
    this.space();
    this.skipString();
    this.colon();
    return this.i;
  }

  /** Passes over the next value if it is an array, with its length; else undefined. */
  arrayLength(): number | undefined {
    if (this.peek() !== 'array') {
      this.value();
      return undefined;
    }
    return this.skipValue();
  }

  /** Passes over the next value: its number if it is one, else undefined. */
  numberValue(): number | undefined {
    if (this.peek() === 'number') return this.number();
    this.value();
    return undefined;
  }

  /** The end of the text: only whitespace may follow the value. */
  end(): void {
    this.space();
    if (this.i !== this.text.length) this.fail();
  }

  /**
   * Enters the object (`{`) or array (`[`) that comes next: whether it has a member, else it is
   * read to its end. Its members are then read, each followed by `next`.
   * @example if (s.open(0x5b)) do s.value(); while (s.next(0x5d));
   */
  open(bracket: typeof OPEN_BRACE | typeof OPEN_BRACKET): boolean {
    this.space();
    if (this.text.charCodeAt(this.i) !== bracket) this.fail();
    this.i++;
    this.space();
    if (this.text.charCodeAt(this.i) !== bracket + 2) return true;
    this.i++;
    return false;
  }

  /** After a member of what `open` entered: whether another follows (`,`), else its end. */
  next(close: typeof CLOSE_BRACE | typeof CLOSE_BRACKET): boolean {
    this.space();
    const c = this.text.charCodeAt(this.i++);
    if (c === COMMA) return true;
    if (c !== close) this.fail();
    return false;
  }

  /** An object member's key and its colon; the cursor is then on its value. */
  key(): string {
    this.space();
    const key = this.string();
    this.colon();
    return key;
  }

  /** Reads a number, as `JSON.parse` makes it. */
  number(): number {
    this.space();
    const start = this.i;
    this.skipNumber();
    return Number(this.text.slice(start, this.i));
  }

  private skipNumber(): void {
    const t = this.text;
    let i = this.i;
    if (t.charCodeAt(i) === MINUS) i++;
    if (t.charCodeAt(i) === ZERO) i++;
    else if (isDigit(t.charCodeAt(i))) while (isDigit(t.charCodeAt(i))) i++;
    else this.fail();
    if (t.charCodeAt(i) === DOT) {
      i++;
      if (!isDigit(t.charCodeAt(i))) this.fail();
      while (isDigit(t.charCodeAt(i))) i++;
    }
    const e = t.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = t.charCodeAt(i);
      if (sign === 0x2b || sign === MINUS) i++;
      if (!isDigit(t.charCodeAt(i))) this.fail();
      while (isDigit(t.charCodeAt(i))) i++;
    }
    this.i = i;
  }

  /** Reads a string, as `JSON.parse` makes it. */
  string(): string {
    const start = this.i;
    const escaped = this.skipString();
    const raw = this.text.slice(start, this.i);
    return escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  }

  /** Passes over a string; whether it holds an escape. */
  private skipString(): boolean {
    const t = this.text;
    let i = this.i;
    if (t.charCodeAt(i) !== QUOTE) this.fail();
    let escaped = false;
    for (i++; ; i++) {
      const c = t.charCodeAt(i);
      if (c === QUOTE) break;
      // NaN past the end, and control characters, are not in a string.
      if (!(c >= 0x20)) this.fail(i);
      if (c !== BACKSLASH) continue;
      escaped = true;
      const e = t.charCodeAt(++i);
      if (e === 0x75) {
        for (let k = 1; k <= 4; k++) if (!isHex(t.charCodeAt(i + k))) this.fail(i);
        i += 4;
      } else if (!ESCAPES.includes(String.fromCharCode(e))) this.fail(i);
    }
    this.i = i + 1;
    return escaped;
  }

  private literal(): void {
    for (const word of LITERALS)
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    this.fail();
  }
}
