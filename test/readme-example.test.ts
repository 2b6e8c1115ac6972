import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

test.each([
  ['README.md', 'examples/first-test.test.ts'],
  ['docs/testing.md', 'examples/sdk.test.ts'],
])('%s shows %s as it is (the file runs in npm test)', (doc, example) => {
  expect(readFileSync(doc, 'utf8')).toContain(`\`\`\`ts\n${readFileSync(example, 'utf8')}\`\`\``);
});
