/** What both served OpenAPI documents share: contact, license, the inferred-operation marker. */

export const CONTACT = { name: 'svc-emulator maintainers' };
export const LICENSE = { name: 'MIT', identifier: 'MIT' };

/** The first line of the description of every operation the API document does not specify. */
export const INFERRED_LINE =
  'Inferred: the API document does not specify this operation; see x-inferred.';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/**
 * Code generators drop `x-inferred`; a description that starts with `INFERRED_LINE` survives
 * into generated SDK docs. Operations without a description of their own get their summary.
 */
export function withInferredFirstLine(doc: { paths?: Record<string, unknown> }): void {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Record<string, Record<string, unknown> | undefined>)[method];
      if (!op?.['x-inferred']) continue;
      const own = (op.description as string | undefined) ?? `${op.summary ?? ''}.`;
      op.description = own.startsWith(INFERRED_LINE) ? own : `${INFERRED_LINE}\n\n${own}`;
    }
  }
}
