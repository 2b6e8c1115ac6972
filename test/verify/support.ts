/** Shared by the verify, proxy and drift tests: targets, a tee that sees raw answers, a grep. */

import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Contract } from '../../src/tools/verify/contract.js';
import { emulatorContract } from '../../src/tools/verify/contract.js';
import { runVerify } from '../../src/tools/verify/run-verify.js';
import type { VerifyOptions } from '../../src/tools/verify/session.js';
import { DEFAULT_SECRET } from '../helpers.js';

let contract: Promise<Contract> | undefined;

/** The emulator's contract, built once per file. */
export function sharedContract(): Promise<Contract> {
  contract ??= emulatorContract();
  return contract;
}

/** verify against `target` with the default key, fast (a local target takes any pace). */
export async function verifyAgainst(target: string, options: Partial<VerifyOptions> = {}) {
  return runVerify(
    {
      target,
      key: DEFAULT_SECRET,
      writes: false,
      maxRequests: 2000,
      rps: 1000,
      maxWait: 30,
      ...options,
    },
    await sharedContract(),
  );
}

/**
 * A pass-through in front of `target` that keeps every raw answer body: the secrets a service
 * sent (webhook signing secrets) are then known to the test, not only to the code under test.
 */
export async function tee(
  target: string,
): Promise<{ url: string; bodies: string[]; close: () => Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        ([k]) => !['host', 'connection', 'content-length'].includes(k),
      ),
    ) as Record<string, string>;
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body });
    const bytes = Buffer.from(await answer.arrayBuffer());
    bodies.push(bytes.toString('latin1'));
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k))
        out[k] = v;
    });
    res.writeHead(answer.status, out).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Webhook signing secrets (`whsec_...`) in some texts. */
export function webhookSecrets(texts: string[]): string[] {
  return [...new Set(texts.flatMap((t) => t.match(/whsec_[A-Za-z0-9+/=]+/g) ?? []))];
}

/** The text of every file of a folder. */
export function filesOf(dir: string): string[] {
  return readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'));
}
