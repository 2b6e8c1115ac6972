/**
 * `compute` remembered for the keys asked last, at most `max` of them: the map is emptied when
 * full, so it stays bounded however many distinct keys come (STYLE.md rule 4). For pure
 * functions whose answers are never mutated, asked for the same few keys over and over (a
 * bearer secret's digest, an `X-Emulator-Fault` value parsed).
 * @example const digestOf = boundedMemo(1024, digestSecret);
 */
export function boundedMemo<K, V>(max: number, compute: (key: K) => V): (key: K) => V {
  const memo = new Map<K, V>();
  return (key) => {
    let value = memo.get(key);
    if (value === undefined) {
      value = compute(key);
      if (memo.size >= max) memo.clear();
      memo.set(key, value);
    }
    return value;
  };
}
