import { expect, test } from 'vitest';
import { DOCUMENTED_AREAS } from '../../src/http/openapi-document.js';
import { servedDocument } from '../helpers.js';

interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  'x-inferred'?: boolean;
}
interface Document {
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
}

/** What Swagger UI lists, in its order: per tag, the operations in the document's order. */
async function operationsByTag() {
  const doc = (await servedDocument()) as Document;
  const byTag = new Map<string, { id: string; summary: string; inferred: boolean }[]>(
    doc.tags.map((t) => [t.name, []]),
  );
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item))
      byTag.get(op.tags[0]!)!.push({
        id: op.operationId,
        summary: op.summary,
        inferred: op['x-inferred'] === true,
      });
  return { doc, byTag };
}

test('the areas with documented operations come first, in the API document title order', async () => {
  const { doc, byTag } = await operationsByTag();
  const names = doc.tags.map((t) => t.name);
  expect(names.slice(0, DOCUMENTED_AREAS.length)).toEqual(DOCUMENTED_AREAS);
  expect(names[0]).toBe('Evaluations');
  const withDocumented = [...byTag].filter(([, ops]) => ops.some((o) => !o.inferred));
  expect(withDocumented.map(([tag]) => tag).sort()).toEqual([...DOCUMENTED_AREAS].sort());
  expect(names.slice(DOCUMENTED_AREAS.length)).toEqual([
    'Augmentations',
    'Training runs',
    'RL runs',
    'Scenario runs',
    'Objects and environments',
    'Catalog',
    'Operations',
    'Usage',
    'Requests',
    'Status',
  ]);
  // Swagger UI groups by these tags in this order: the paths follow it too.
  const pathTags = Object.values(doc.paths).map((item) => Object.values(item)[0]!.tags[0]);
  expect([...new Set(pathTags)]).toEqual(names);
});

test('each run area lists create, list and get first, then cancel, resume, logs, files, archive', async () => {
  const { byTag } = await operationsByTag();
  const evaluations = byTag.get('Evaluations')!.map((o) => o.id);
  expect(evaluations).toEqual([
    'createEvaluation',
    'listEvaluations',
    'getEvaluation',
    'cancelEvaluation',
    'resumeEvaluation',
    'getSimRunLogs',
    'listSimRunFiles',
    'getEvaluationArchive',
  ]);
  for (const [tag, one] of [
    ['Augmentations', 'Augmentation'],
    ['Training runs', 'TrainingRun'],
    ['Twins', 'Twin'],
    ['RL runs', 'RlRun'],
    ['Scenario runs', 'ScenarioRun'],
  ] as const) {
    const ids = byTag.get(tag)!.map((o) => o.id);
    expect(ids.slice(0, 8), tag).toEqual([
      `create${one}`,
      `list${one}s`,
      `get${one}`,
      `cancel${one}`,
      `resume${one}`,
      `get${one}Logs`,
      `list${one}Files`,
      `get${one}Archive`,
    ]);
  }
  const assets = byTag.get('Objects and environments')!.map((o) => o.id);
  expect(assets.slice(0, 4)).toEqual([
    'createEnvironment',
    'listEnvironments',
    'getEnvironment',
    'deleteEnvironment',
  ]);
});

test('summaries read as English: an augmentation, an RL run, an object', async () => {
  const { byTag } = await operationsByTag();
  const summaries = [...byTag.values()].flat().map((o) => o.summary);
  expect(summaries).toEqual(
    expect.arrayContaining([
      'Create an augmentation (inferred)',
      'Create an RL run (inferred)',
      'List RL runs, newest first (inferred)',
      'Get an object (inferred)',
      'Create a twin (inferred)',
    ]),
  );
  // "a" before a vowel letter, or before an acronym read with a vowel sound (an RL run).
  const wrong = summaries.filter((s) => /\b[Aa] (?:[aeio]|[AEFHILMNORSX][A-Z])/.test(s));
  expect(wrong).toEqual([]);
});
