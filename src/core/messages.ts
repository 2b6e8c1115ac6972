/** The texts of the error messages (STYLE.md rule 2: no error text inline). */

/** `1 MiB (1,048,576 bytes)`: a limit as the messages name it. */
const mebibytes = (bytes: number) =>
  `${bytes / 1048576} MiB (${bytes.toLocaleString('en-US')} bytes)`;

/** `12.5 MiB`: a size as the messages name it. */
const mib = (bytes: number) => `${Math.round((bytes / 1048576) * 10) / 10} MiB`;

/** Messages that name something of the request; clients branch on `code` (API document 7). */
export const MESSAGES = {
  notFound: (kind: string, id: string) => `No such ${kind}: '${id}'.`,
  unrecognized: (method: string, path: string) => `Unrecognized request: ${method} ${path}.`,
  // 400
  alreadyExists: (what: string) => `${what} already exists.`,
  idPrefix: (kind: string, prefix: string) => `A ${kind} id starts with '${prefix}_'.`,
  secretInUse: 'This secret is already in use.',
  expectation: (expect: string) =>
    `Expect: ${expect} cannot be met; the only expectation this server meets is 100-continue.`,
  connectRefused: 'CONNECT is not served: this is an API server, not a proxy.',
  hostNotAllowed: (host: string) =>
    `The Host '${host}' is not one this emulator serves /_control and /docs to; start it with --allowed-hosts ${host.replace(/:\d+$/, '')} (or EMULATOR_ALLOWED_HOSTS) to allow it.`,
  badFaultHeader: (why: string) => `Invalid X-Emulator-Fault header: ${why}.`,
  hostRequired: 'HTTP/1.1 requests need a Host header.',
  malformedRequest: 'The request line or headers are malformed.',
  bodyCutShort: 'The connection closed before the request body was complete.',
  jsonTooDeep: (depth: number) => `The JSON body is nested deeper than ${depth} levels.`,
  notJson: 'The request body must be JSON, sent with `Content-Type: application/json`.',
  unsupportedVersion: (asked: string, supported: readonly string[]) =>
    `Unsupported Service-Version '${asked}'. Supported: ${supported.join(', ')}.`,
  operationVersions: (versions: readonly string[]) =>
    `This operation supports Service-Version ${versions.join(', ')} only.`,
  idempotencyKeyFormat: 'Idempotency-Key must be 1 to 255 visible ASCII characters.',
  badCursor: (after: string, kind: string) =>
    `'${after}' is not ${kind} of this account to page after.`,
  noJournalEntry: (after: string) => `No request '${after}' in this account's journal.`,
  unknownKind: (kind: string, kinds: readonly string[]) =>
    `'${kind}' is not a run kind served here: ${kinds.join(', ')}.`,
  notInJournal: (after: string) => `No request '${after}' in the journal (with these filters).`,
  unknownOperation: (op: string) =>
    `'${op}' is not an operation of /openapi.json (its operationId, e.g. createEvaluation).`,
  clockBackwards: 'A virtual clock only moves forward.',
  fileNotRegular: (kind: string) =>
    `it is ${kind}, not a regular file; only regular files (or links to them) are read`,
  fileTooLarge: (bytes: number, what: string, limit: number) =>
    `it is ${bytes.toLocaleString('en-US')} bytes; ${what} is at most ${mebibytes(limit)}`,
  scenarioRecords: (total: number, limit: number) =>
    `This scenario makes ${total.toLocaleString('en-US')} records (accounts, keys, runs, webhook endpoints, environments, objects, fault and outcome rules); a scenario makes at most ${limit.toLocaleString('en-US')}`,
  scenarioRows: (total: number, limit: number) =>
    `This scenario makes ${total.toLocaleString('en-US')} rows of files and log lines (its runs' \`files\` and \`logs\`, its twins' \`generate_files\`); a scenario makes at most ${limit.toLocaleString('en-US')}`,
  nameOrScenario:
    'give `name` (a file of the scenarios folders) or `scenario` (an inline scenario), exactly one',
  scenarioName: 'a scenario name is letters, digits, - and _ (files of the scenarios folders)',
  unknownEventType: (type: string) =>
    `'${type}' is not an event type the platform emits: <kind>.<status> of a run kind served, or webhook_endpoint.disabled.`,
  eventObjectShape: 'data.object must be a resource body: an object with string `id` and `object`.',
  noEventResource: (noun: string, id: string | undefined) =>
    id === undefined
      ? `The account has no ${noun} for the event to show: name one in \`resource\`, or give \`data.object\`.`
      : `The account has no ${noun} '${id}'.`,
  catalogUnknown: (what: string, id: string) => `No such ${what} in the catalog: '${id}'.`,
  cameraNotFound: (camera: string, dataset: string) =>
    `Dataset '${dataset}' has no camera '${camera}'; details.cameras lists the ones it has.`,
  listedTwice: (id: string, param: string) => `'${id}' is listed more than once in '${param}'.`,
  assetNotValidated: (kind: string, id: string, status: string) =>
    `The ${kind} '${id}' is ${status}, not validated.`,
  noEpisode: (dataset: string, index: number) =>
    `Dataset '${dataset}' has no episode with index ${index}.`,
  noEmbodiment: (robot: string, embodiment: string) =>
    `Robot '${robot}' has no embodiment '${embodiment}'.`,
  taskRejectsEmbodiment: (task: string, embodiment: string) =>
    `Task '${task}' does not accept embodiment '${embodiment}'.`,
  noSharedEmbodiment: (task: string, robot: string) =>
    `Task '${task}' accepts none of robot '${robot}''s embodiments.`,
  datasetRobot: (dataset: string, datasetRobot: string, policy: string, policyRobot: string) =>
    `Dataset '${dataset}' was recorded on robot '${datasetRobot}', but policy '${policy}' drives '${policyRobot}'.`,
  // 401
  noKey: 'No API key provided. Send `Authorization: Bearer <API_KEY>`.',
  malformedAuthorization: 'Malformed Authorization header. Expected `Bearer <API_KEY>`.',
  keyPrefix: 'Invalid API key: keys start with `svc_`.',
  invalidKey: 'Invalid API key.',
  revokedKey: 'This API key has been revoked.',
  expiredKey: 'This API key has expired.',
  // 402, 403
  needsTokens: (estimate: number, balance: number) =>
    `This run needs an estimated ${estimate} tokens; the account has ${balance}.`,
  missingScope: (scope: string) => `This API key lacks the '${scope}' scope this call needs.`,
  featureOff: (feature: string) => `The '${feature}' feature is not enabled for this account.`,
  // 404, 409
  noDownloadLink: 'No such download link.',
  seededWithoutArchive: 'This run was seeded as succeeded without an archive.',
  policyInTraining: (policy: string, run: string) =>
    `Policy '${policy}' is already being fine-tuned by training run '${run}'; one run per policy.`,
  notCancelable: (status: string) => `The run is ${status} and cannot be canceled.`,
  deliveryPending: (id: string) =>
    `Delivery '${id}' is still pending; a delivered or failed one can be redelivered.`,
  endpointNotTaking: (id: string, why: 'deleted' | 'disabled') =>
    why === 'deleted'
      ? `Webhook endpoint '${id}' is deleted and takes no deliveries.`
      : `Webhook endpoint '${id}' is disabled; enable it first (POST /_control/webhook_endpoints/${id}/enable).`,
  notAccountEndpoint: (id: string, account: string) =>
    `'${id}' is not a webhook endpoint of account '${account}' (or it is deleted).`,
  notResumableStatus: (status: string) =>
    `Only a failed or canceled run can be resumed; this run is ${status}.`,
  notResumableError: (code: string) => `This run failed with '${code}', which is not resumable.`,
  filesNotReady: (what: string, status: string) =>
    `The ${what} is ${status}; its files are listed once it has succeeded.`,
  noArchiveYet: (status: string) => `The run is ${status}; it has no archive yet.`,
  keyInFlight: 'A request with this Idempotency-Key is still in progress.',
  keyReused: 'This Idempotency-Key was used with a different request within the last 24 hours.',
  // 429
  rateLimited: (rpm: number, retryAfterS: number) =>
    `The account allows ${rpm} requests per minute. Retry after ${retryAfterS} s.`,
  concurrencyLimited: (limit: number, active: number) =>
    `The account allows ${limit} concurrent runs; ${active} are active.`,
  capacityTaken: (tier: string, capacity: number) =>
    `Hardware tier '${tier}' runs at most ${capacity} runs at once, and all are taken.`,
  // World snapshots (control API, `--snapshot`)
  snapshotNotFile:
    'This is not an svc-emulator snapshot file: it has no `"format": "svc-emulator-snapshot"`.',
  snapshotVersion: (saved: string, savedSchema: number, version: string, schema: number) =>
    `This snapshot was saved by svc-emulator ${saved} (schema version ${savedSchema}); this emulator is ${version} (schema version ${schema}) and loads only snapshots saved by ${version}.`,
  snapshotCorrupt: (why: string) => `The snapshot file is corrupt: ${why}.`,
  snapshotSeed: (saved: string, seed: string) =>
    `This snapshot was saved with seed '${saved}' and this emulator runs with seed '${seed}': ids and secrets would not follow. Start it with --seed ${saved}.`,
  snapshotClash: (account: string) =>
    `The snapshot's account '${account}' holds an id or key secret another account now has; restore the whole world, or remove the other.`,
  snapshotCount: (limit: number) =>
    `This emulator keeps at most ${limit} snapshots (--snapshot-limit): delete one (DELETE /_control/snapshots/{name}), or save under a name already taken.`,
  snapshotSpace: (used: number, needs: number, limit: number) =>
    `The snapshots take ${mib(used)} of the ${mib(limit)} they may take together (--snapshot-space), and this one ${needs > 0 ? `takes about ${mib(needs)}` : 'does not fit'}: delete some (DELETE /_control/snapshots/{name}) first.`,
  snapshotScope: (where: string, detail: string) =>
    `The snapshot file holds a row outside its scope: ${where}: ${detail}.`,
  otherAccount: (value: unknown, account: string) =>
    `'${String(value)}' is not the snapshot's account '${account}'`,
  notInFile: (value: unknown, what: string) => `'${String(value)}' names no ${what} in the file`,
  notOfAnAccount:
    "an account's snapshot holds no part of the whole emulator (request ids, fault rules, its clock, the scenario)",
  snapshotBoth:
    'Give `account` (a snapshot of one account) or `snapshot` (a file to load), not both.',
  // Replay bundles (control API, `--bundle`, `svc-emulator replay`)
  bundleOverflow: (limit: number, call: number) =>
    `The calls recorded since the mark passed the ${mib(limit)} of --bundle-limit at call ${call.toLocaleString('en-US')}, and the recording stopped there: mark later (POST /_control/bundle/mark) so that only the calls you need are recorded, or start the emulator with a larger --bundle-limit.`,
  bundleTooLarge: (bytes: number, limit: number, calls: number) =>
    `This bundle would take about ${mib(bytes)} (the world at the mark and ${calls.toLocaleString('en-US')} calls), more than the ${mib(limit)} of --bundle-limit: bundle one account (?account=ID), mark later (POST /_control/bundle/mark), or start the emulator with a larger --bundle-limit.`,
  bundleAccount: (account: string) =>
    `The account '${account}' was neither in the world at the mark nor made by a call since; bundle the whole world, or one of its accounts.`,
  bundleNotFile:
    'This is not an svc-emulator replay bundle: it has no svc-emulator-bundle/manifest.json.',
  bundleVersion: (saved: string, version: string) =>
    `This bundle was recorded by svc-emulator ${saved}; this is ${version}, and it replays only bundles of ${version}: install svc-emulator ${saved} to replay it.`,
  bundleCorrupt: (why: string) => `The bundle is corrupt: ${why}.`,
  // 500
  worldFull:
    "The emulator's in-memory database is full (1 GiB). Reset the world (POST /_control/reset) " +
    'or start the emulator with --db FILE.',
} as const;
