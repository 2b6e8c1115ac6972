/** One member of an object's JSON text, read in place with the scanner (json-scan.ts). */
import { CLOSE_BRACE, JsonScan, NotJson, OPEN_BRACE } from './json-scan.js';

/**
 * The member `key` of the object that JSON text holds, parsed (the last, as `JSON.parse` keeps
 * it); undefined if the text is not JSON or not an object, or has none. The rest is not parsed.
 * @example jsonMember('{"account": "acct_1", "n": [1, 2]}', 'account') // 'acct_1'
 */
export function jsonMember(text: string, key: string): unknown {
  try {
    const scan = new JsonScan(text);
    if (scan.peek() !== 'object') return undefined;
    let member: string | undefined;
    if (scan.open(OPEN_BRACE))
      do {
        if (scan.key() === key) member = scan.valueText();
        else scan.value();
      } while (scan.next(CLOSE_BRACE));
    scan.end();
    return member === undefined ? undefined : JSON.parse(member);
  } catch (err) {
    if (err instanceof NotJson) return undefined;
    throw err;
  }
}
