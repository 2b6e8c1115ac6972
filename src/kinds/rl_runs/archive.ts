/** A succeeded RL run's archive files (inferred): policy, scene, verdict, training curve, log. */
import type { ArchiveEntry } from '../../core/archive.js';
import { canonicalJsonFile } from '../../core/canonical-json.js';
import { type RlContext, type RlResult, trainingCurve } from './output.js';
import { policyOnnx } from './policy-onnx.js';

/** A USD stage naming the robot, its embodiment, the task and the environment it was built from. */
function sceneUsda(ctx: RlContext, sceneId: string): string {
  const { robot, embodiment, task, environment } = ctx.request;
  return [
    '#usda 1.0',
    '(',
    `    doc = "${sceneId}: ${robot} (${embodiment}) on ${task} in ${environment}"`,
    '    defaultPrim = "World"',
    '    metersPerUnit = 1',
    '    upAxis = "Z"',
    ')',
    '',
    'def Xform "World"',
    '{',
    `    def "Environment" (references = @environments/${environment}.usda@) {}`,
    `    def "Robot" (references = @robots/${robot}/${embodiment}.usda@) {}`,
    `    custom string task = "${task}"`,
    '}',
    '',
  ].join('\n');
}

/** @example archiveEntries(ctx, result, 20, lines).map((e) => e.path) // ['logs/rl.log', ...] */
export function archiveEntries(
  ctx: RlContext,
  result: RlResult,
  steps: number,
  logLines: string[],
): ArchiveEntry[] {
  return [
    { path: 'policy/policy.onnx', content: policyOnnx(ctx.requestHash, result.policy.name) },
    { path: result.scene.path, content: sceneUsda(ctx, result.scene.id) },
    {
      path: 'verdict.json',
      content: canonicalJsonFile({ policy: result.policy, scene: result.scene, ...result.verdict }),
    },
    {
      path: 'training_curve.json',
      content: canonicalJsonFile({ iterations: steps, curve: trainingCurve(ctx, steps) }),
    },
    { path: 'logs/rl.log', content: logLines.map((l) => `${l}\n`).join('') },
  ];
}
