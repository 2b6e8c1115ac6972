/**
 * The Host check of `/_control` and the docs pages (inferred, as Vite's and webpack-dev-server's
 * dev servers check it): a web page on a DNS-rebinding domain reaches the emulator with that
 * domain in `Host`, and must not reset the world or make keys. Loopback names and the ones the
 * emulator was bound to or told about (`--allowed-hosts`) pass; a request without `Host`
 * (HTTP/1.0) comes from no browser and passes too.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../core/env.js';
import { apiError, MESSAGES } from '../core/errors.js';

/** Always allowed: what a browser on this machine calls the emulator by. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]', '::1'] as const;

/**
 * Whether `allowed` admits the name: an entry `*` admits any, `.example.test` that domain and its
 * subdomains, anything else that exact name; an unspecified bind address (`0.0.0.0`, `::`)
 * stands for no name of its own.
 * @example hostAllowed('localhost:8710', ['localhost']) // true
 */
export function hostAllowed(header: string | undefined, allowed: readonly string[]): boolean {
  if (header === undefined || header === '') return true;
  const host = header.trim().toLowerCase();
  // Without the port; brackets kept for IPv6.
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return allowed.some((entry) => {
    const e = entry.toLowerCase();
    if (e === '*') return true;
    if (e.startsWith('.')) return name === e.slice(1) || name.endsWith(e);
    return name === e || name === `[${e}]`;
  });
}

/** 403 `host_not_allowed` for a Host the emulator does not serve these pages to. */
export function allowedHostsOnly(allowed: readonly string[]) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const host = c.req.header('host');
    if (!hostAllowed(host, allowed))
      throw apiError('host_not_allowed', { message: MESSAGES.hostNotAllowed(host ?? '') });
    await next();
  });
}
