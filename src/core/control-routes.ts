/** Helpers of the control API's route declarations. */
import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses } from './contract.js';

export const json = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

export const AccountParam = z.object({
  account_id: z.string().openapi({
    param: { name: 'account_id', in: 'path' },
    example: 'acct_00000000000000000000000001',
    description: 'An account id; the default scenario has `acct_00000000000000000000000001`.',
  }),
});

/** The control document's areas, each a tag, in the order `/_control/docs` shows them. */
export const CONTROL_TAGS = [
  { name: 'World', description: 'Liveness, and resetting the world to its scenario.' },
  {
    name: 'Snapshots',
    description: 'The world (or one account) saved by name, put back exactly, and as a file.',
  },
  { name: 'Scenarios', description: 'The scenario files, and loading one (named or inline).' },
  { name: 'Accounts and keys', description: 'Isolated accounts and their API keys.' },
  {
    name: 'Clock',
    description: "Each account's virtual clock: read it, set its mode, move it forward.",
  },
  { name: 'Seeding', description: 'Resources of an account in any state, or on the clock.' },
  {
    name: 'Runs',
    description:
      "The run kinds served, and an account's runs of every kind: timeline, logs, files, archive.",
  },
  { name: 'Faults', description: 'Rules that fail, delay or drop matching product calls.' },
  {
    name: 'Journal',
    description:
      "Every product call the emulator answered, and each key's error handling judged from it.",
  },
  {
    name: 'Webhooks',
    description:
      'Deliveries and their attempts, redelivery, enabling an endpoint, and firing an event.',
  },
  { name: 'Control', description: 'Other control operations.' },
] as const;

type ControlTag = (typeof CONTROL_TAGS)[number]['name'];

/** The tag of a control path: by its first segment, and the account's subresource. */
export function controlTag(path: string): ControlTag {
  const [first, , sub] = path.split('/').filter(Boolean);
  if (first === 'health' || first === 'reset') return 'World';
  if (first === 'snapshots') return 'Snapshots';
  if (first === 'scenarios') return 'Scenarios';
  if (first === 'keys') return 'Accounts and keys';
  if (first === 'accounts') {
    if (sub === undefined || sub === 'keys') return 'Accounts and keys';
    if (sub === 'events') return 'Webhooks';
    return sub === 'clock' ? 'Clock' : 'Seeding';
  }
  if (first === 'runs' || first === 'kinds') return 'Runs';
  if (first === 'faults' || first === 'sweeps') return 'Faults';
  if (first === 'requests' || first === 'stream' || first === 'client_report') return 'Journal';
  if (first === 'webhook_deliveries' || first === 'webhook_endpoints') return 'Webhooks';
  return 'Control';
}

/** What any control call can answer before its handler runs (`control/app.ts`). */
const GUARD_RESPONSES = errorResponses([401, 403], {
  401: 'Started with `--control-token` and the `X-Control-Token` header is missing or wrong: `control_unauthorized`.',
  403: 'A browser request from another web origin: `cross_origin_forbidden`.',
});

/** A control API route, tagged by its path (`controlTag`) unless it names its tag, with the guards' 401 and 403. */
export const route = <const R extends Parameters<typeof createRoute>[0]>(r: R) =>
  createRoute({
    ...r,
    tags: r.tags ?? [controlTag(r.path)],
    responses: { ...GUARD_RESPONSES, ...r.responses },
  });
