import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../../src/core/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys recursively and writes no whitespace', () => {
    const value = { b: [3, { z: 1, y: [true, null] }], a: { d: 'x', c: 1.5 }, B: -2 };
    expect(canonicalJson(value)).toBe(
      '{"B":-2,"a":{"c":1.5,"d":"x"},"b":[3,{"y":[true,null],"z":1}]}',
    );
  });

  it('orders keys by UTF-16 code units, not by code point or locale', () => {
    // U+1F600 is the surrogate pair D83D DE00, which sorts before U+FF5E in UTF-16 order
    // although its code point is larger.
    const value = { '\uFF5E': 1, '\u{1F600}': 2, é: 3, e: 4, Z: 5 };
    expect(canonicalJson(value)).toBe('{"Z":5,"e":4,"é":3,"😀":2,"～":1}');
  });

  it('does not depend on key insertion order', () => {
    expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } })).toBe(
      canonicalJson({ b: { d: 3, c: 2 }, a: 1 }),
    );
  });

  it('omits undefined properties and writes undefined array items as null', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1], c: { d: undefined } })).toBe(
      '{"b":[null,1],"c":{}}',
    );
  });

  it('writes primitives, escapes and -0 as JSON.stringify does', () => {
    expect(canonicalJson('a"b\\c\n\u0001')).toBe(JSON.stringify('a"b\\c\n\u0001'));
    expect(canonicalJson('\uD800')).toBe('"\\ud800"');
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson(1e21)).toBe('1e+21');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(false)).toBe('false');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
  });

  it('uses toJSON, once per position', () => {
    expect(canonicalJson({ at: new Date(Date.UTC(2026, 0, 2)) })).toBe(
      '{"at":"2026-01-02T00:00:00.000Z"}',
    );
    // toJSON returning `this` terminates; the object is then rejected for its function property.
    const selfish = {
      x: 1,
      toJSON(): unknown {
        return this;
      },
    };
    expect(() => canonicalJson(selfish)).toThrow(TypeError);
    expect(canonicalJson({ toJSON: () => ({ b: 1, a: undefined }) })).toBe('{"b":1}');
  });

  it('accepts null-prototype objects', () => {
    const value = Object.assign(Object.create(null) as object, { b: 1, a: 2 });
    expect(canonicalJson(value)).toBe('{"a":2,"b":1}');
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity in an array', [1, Number.NEGATIVE_INFINITY]],
    ['a BigInt', { a: 1n }],
    ['a function', { f: () => 1 }],
    ['a function in an array', [() => 1]],
    ['a top-level function', () => 1],
    ['a symbol', { s: Symbol('s') }],
    ['top-level undefined', undefined],
    ['a Map', new Map([['a', 1]])],
    ['a Uint8Array', { bytes: new Uint8Array([1]) }],
  ])('throws a TypeError on %s', (_label, value) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
  });

  it('throws a TypeError on cycles but accepts shared non-cyclic references', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
    const shared = { n: 1 };
    expect(canonicalJson({ x: shared, y: [shared] })).toBe('{"x":{"n":1},"y":[{"n":1}]}');
  });

  it('round-trips any JSON value and is a fixed point', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(text).not.toMatch(/^\s|\s$/);
      }),
    );
  });
});

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('hashes a string as its UTF-8 bytes', () => {
    const text = 'héllo 😀';
    expect(sha256Hex(text)).toBe(sha256Hex(new TextEncoder().encode(text)));
    expect(sha256Hex(text)).toMatch(/^[0-9a-f]{64}$/);
  });
});
