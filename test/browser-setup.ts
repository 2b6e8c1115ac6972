/**
 * The browser project's global setup (vitest.config.ts): one headless chromium for all its test
 * files (the inspector's, CORS and `/docs`), which connect to it by its WebSocket endpoint
 * (`connectChromium(inject('chromiumWsEndpoint'))`), in place of one launch per file.
 */
import type { TestProject } from 'vitest/node';
import { launchChromiumServer } from './chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumWsEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await launchChromiumServer();
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return () => server.close();
}
