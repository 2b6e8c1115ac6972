import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { startEmulator } from '../src/tools/harness/index.js';

test.each([
  ['README.md', 'examples/first-test.test.ts'],
  ['docs/testing.md', 'examples/sdk.test.ts'],
  ['docs/error-handling.md', 'examples/error-handling.test.ts'],
])('%s shows %s as it is (the file runs in npm test)', (doc, example) => {
  expect(readFileSync(doc, 'utf8')).toContain(`\`\`\`ts\n${readFileSync(example, 'utf8')}\`\`\``);
});

test("the docs' afterAll leaves a failed start's own error the one shown (issue 35 item 7)", async () => {
  const docs = ['README.md', 'docs/testing.md'].map((f) => readFileSync(f, 'utf8')).join('\n');
  const hooks = [...docs.matchAll(/^afterAll\((.*?)\);/gm)].map((m) => m[1]!);
  expect(hooks.length).toBe(3);
  const failed = await startEmulator({ scenario: 'no-such-scenario' }).catch((err: Error) => err);
  expect(String(failed)).toMatch(/no-such-scenario: no scenario of that name/);
  // The hook as the docs write it, run with the `emulator` a failed beforeAll leaves: undefined.
  for (const hook of hooks) {
    const run = new Function('emulator', `return (${hook})();`) as (e: undefined) => unknown;
    expect(() => run(undefined), hook).not.toThrow();
  }
});
