/**
 * Every route of the product and control APIs fits Hono's RegExpRouter. One it cannot compile
 * (a parameter beside a fixed segment it cannot order, say) makes SmartRouter fall back to the
 * TrieRouter for every request: about 8% more CPU on each `GET /v1/keys/me` (issue 30 found one).
 */
import { expect, test } from 'vitest';
import { testEmulator } from '../helpers.js';

test("the app's routes are served by Hono's RegExpRouter", async () => {
  const { app } = testEmulator();
  await app.request('/v1/keys/me');
  const router = app.router as unknown as { activeRouter: { name: string } };
  expect(router.activeRouter.name).toBe('RegExpRouter');
});
