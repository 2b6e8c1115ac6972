import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

test('the README shows examples/sdk.test.ts as it is (the file runs in npm test)', () => {
  const readme = readFileSync('README.md', 'utf8');
  const example = readFileSync('examples/sdk.test.ts', 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
});
