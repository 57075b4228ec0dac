import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CUSTOMER_COOKIE } from '../../shared/constants';
import { startLocalStack, type LocalStack } from './stack';

/**
 * /ws as `npm start` serves it: the socket functions of shared/routes.ts behind the stack's own HTTP
 * server, and what the functions publish arriving through the management endpoint. The stack puts its
 * environment on process.env, so this file keeps it to itself (vitest isolates files).
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-ws-stack-'));
let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, dataDir, web: false });
});

afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const wsUrl = () => `${stack.url.replace('http://', 'ws://')}/ws`;

function open(protocols: string[], cookie?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const client = new WebSocket(wsUrl(), protocols, cookie ? { headers: { Cookie: cookie } } : {});
    client.once('open', () => resolve(client));
    client.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    client.once('error', reject);
  });
}

describe('npm start: /ws and the @connections endpoint', () => {
  it('records the management endpoint in .data/stack.json and gives it to the functions as WEBSOCKET_ENDPOINT', () => {
    // Prepare
    const file = path.join(dataDir, 'stack.json');

    // Act
    const recorded = JSON.parse(readFileSync(file, 'utf8')) as { websocketEndpoint?: string };

    // Assess
    expect(recorded.websocketEndpoint).toBe(stack.websocketEndpoint);
    expect(process.env.WEBSOCKET_ENDPOINT).toBe(stack.websocketEndpoint);
    expect(stack.websocketEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/local$/);
  });

  it('refuses a handshake that proves nobody, through the connect-socket function', async () => {
    // Act: no credentials, and a well-formed customer cookie the server never issued.
    const attempts = [open(['fixly.v1']), open(['fixly.v1'], `${CUSTOMER_COOKIE}=${'C'.repeat(22)}`)];

    // Assess
    await Promise.all(attempts.map((attempt) => expect(attempt).rejects.toThrow('refused 401')));
  });

  it("accepts a customer's handshake with the fixly.v1 subprotocol and delivers what the functions publish to their channel", async () => {
    // Prepare: a customer the stack's server issued (imported now, so it writes to the stack's table).
    const { issuedCustomer } = await import('../../functions/testing/customers');
    const { customerId, cookie } = await issuedCustomer();
    const client = await open(['fixly.v1'], cookie);
    const received = new Promise<string>((resolve) => client.once('message', (data) => resolve(data.toString())));
    const { publish } = await import('../../functions/realtime/realtime');

    // Act
    const delivery = await publish(`user:customer:${customerId}`, 'pong', {});

    // Assess
    expect(client.protocol).toBe('fixly.v1');
    expect(delivery).toEqual({ delivered: 1, pruned: 0 });
    expect(JSON.parse(await received)).toEqual({ event: 'pong', data: {} });
    client.close();
  });
});
