import { connect } from 'node:net';
import { expect } from 'vitest';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends raw bytes on a fresh loopback socket and reads until the server closes it (no deadline: the
 * test's limit catches a server that never does); `hold` keeps our side open (a client that never
 * finishes its request).
 */
export function rawRequest(p: number, payload: Buffer | string, hold = false): Promise<RawAnswer> {
  return rawExchange(p, payload, hold).then((text) => {
    const [head = '', body = ''] = text.split('\r\n\r\n');
    const [statusLine = '', ...lines] = head.split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const at = line.indexOf(':');
      headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
    }
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  });
}

/** What `rawRequest` reads back, unparsed: every byte the server sent before it closed. */
export function rawExchange(p: number, payload: Buffer | string, hold = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(p, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    // A server that answers before reading the whole request (a 1 MB URL) may reset the
    // connection while we still write; what it answered has been read by then, as curl would.
    socket.on('error', (err) => {
      if (chunks.length === 0) reject(err);
    });
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    if (hold) socket.write(payload);
    else socket.end(payload);
  });
}

/** The standard envelope, with the headers every parser-level answer carries. */
export function expectEnvelope(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json');
  expect(answer.headers.connection).toBe('close');
  expect(answer.headers['service-version']).toBe('2026-09-27');
  const body = JSON.parse(answer.body) as { error: Record<string, unknown> };
  expect(body.error).toMatchObject({ type: 'invalid_request_error', code, param: null });
  expect(body.error.request_id).toBe(answer.headers['x-request-id']);
  expect(body.error.request_id).toMatch(/^req_/);
  expect(typeof body.error.message).toBe('string');
}
