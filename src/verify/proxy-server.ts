/**
 * The serving mode `--proxy URL [--record DIR]`: `/v1` goes to the target (src/verify/proxy.ts);
 * `/openapi.json` and `/docs` are the emulator's own, the contract answers are judged against.
 */
import type { AddressInfo } from 'node:net';
import type { CliConfig } from '../config.js';
import { createEmulator } from '../emulator.js';
import { createNodeServer } from '../http/node-server.js';
import { CassetteError, CassetteWriter } from './cassette.js';
import { emulatorContract } from './contract.js';
import { maskUrl } from './mask.js';
import { forward } from './proxy.js';

/** Starts the proxy; a folder that holds a cassette already, or a port in use, exits. */
export async function startProxy(config: CliConfig & { proxy: string }): Promise<void> {
  let cassette: CassetteWriter | undefined;
  try {
    cassette = config.record ? new CassetteWriter(config.record) : undefined;
  } catch (err) {
    if (!(err instanceof CassetteError)) throw err;
    console.error(`svc-emulator: ${err.message}`);
    process.exit(2);
  }
  const target = config.proxy.replace(/\/+$/, '');
  const contract = await emulatorContract({ strict: config.strict });
  const emulator = createEmulator({ control: false, strict: config.strict, webhooks: false });
  const app = {
    fetch: (req: Request) =>
      /^\/v1(\/|$)/.test(new URL(req.url).pathname)
        ? forward(req, { target, contract, cassette })
        : emulator.app.fetch(req),
  };
  const server = createNodeServer(app, emulator.deps);
  server.listen(config.port, config.host, () => {
    const info = server.address() as AddressInfo;
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    console.log(
      [
        `svc-emulator ${emulator.deps.config.version} proxy listening on http://${host}:${info.port}`,
        `  /v1        forwarded to ${maskUrl(target)}; violations of the contract in X-Emulator-Violations`,
        `  contract   http://${host}:${info.port}/openapi.json`,
        ...(config.record ? [`  recording  ${config.record}`] : []),
      ].join('\n'),
    );
  });
  server.on('error', (err: NodeJS.ErrnoException) => {
    console.error(`svc-emulator: cannot listen on ${config.host}:${config.port}: ${err.message}`);
    process.exit(1);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
