/**
 * The serving mode `--proxy URL [--record DIR]`: `/v1` goes to the target (src/tools/verify/proxy.ts);
 * `/openapi.json` and `/docs` are the emulator's own, the contract answers are judged against.
 */
import type { AddressInfo } from 'node:net';
import type { CliConfig } from '../../config.js';
import { createNodeServer, serverTimeouts } from '../../http/node-server.js';
import { createEmulator, type Emulator } from '../emulator.js';
import { CassetteError, CassetteWriter } from './cassette.js';
import { emulatorContract } from './contract.js';
import { maskUrl } from './mask.js';
import { forward } from './proxy.js';

export interface ProxyApp {
  fetch(req: Request): Promise<Response>;
  /** The emulator that serves the contract (`/openapi.json`, `/docs`) and the Node server's deps. */
  emulator: Emulator;
}

/**
 * The proxy as a fetch handler: `/v1` forwarded to `target`, everything else (the contract, the
 * docs pages) served by an emulator without a control API.
 * @example const proxy = await createProxyApp({ target: 'https://api.example.com' });
 */
export async function createProxyApp(options: {
  target: string;
  cassette?: CassetteWriter;
  strict?: boolean;
}): Promise<ProxyApp> {
  const target = options.target.replace(/\/+$/, '');
  const contract = await emulatorContract({ strict: options.strict });
  const emulator = createEmulator({ control: false, strict: options.strict, webhooks: false });
  const cassette = options.cassette;
  return {
    emulator,
    fetch: async (req: Request) =>
      /^\/v1(\/|$)/.test(new URL(req.url).pathname)
        ? forward(req, { target, contract, cassette })
        : emulator.app.fetch(req),
  };
}

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
  const app = await createProxyApp({ target, cassette, strict: config.strict });
  const { emulator } = app;
  const server = createNodeServer(app, emulator.deps, serverTimeouts(config));
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
