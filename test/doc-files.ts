/**
 * The README and the manual under docs/, in reading order: README.md, then the files of docs/ in
 * the order the README's table of contents (its section "The manual") links them. Shared by the
 * README test and the link test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root, with a trailing slash. */
export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface DocFile {
  /** Relative to the repository root: `README.md`, `docs/api.md`. */
  path: string;
  markdown: string;
}

/** The `docs/<name>.md` links of the README's section "The manual", in order, each once. */
export function tableOfContents(readme: string): string[] {
  const section = /^## The manual\b[^\n]*\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1] ?? '';
  const links = [...section.matchAll(/\]\((docs\/[\w.-]+\.md)\)/g)].map((m) => m[1]!);
  return [...new Set(links)];
}

/** Every Markdown file of docs/, sorted. */
export function docsOnDisk(): string[] {
  return readdirSync(`${ROOT}docs`)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
    .sort();
}

/** README.md, then the files of the table of contents, in that order. */
export function readingOrder(): DocFile[] {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  return [
    { path: 'README.md', markdown: readme },
    ...tableOfContents(readme).map((path) => ({
      path,
      markdown: readFileSync(`${ROOT}${path}`, 'utf8'),
    })),
  ];
}
