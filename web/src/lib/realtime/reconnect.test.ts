import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { RealtimeClient, type SocketLike } from './client';

/**
 * The client against a real WebSocket server that goes away and comes back on the same port: it
 * says Reconnecting, comes back by itself within the backoff, and joins its rooms again.
 */
async function serve(port = 0): Promise<{ server: WebSocketServer; port: number; frames: string[] }> {
  const frames: string[] = [];
  const server = new WebSocketServer({ port, host: '127.0.0.1', handleProtocols: () => 'fixly.v1' });
  server.on('connection', (socket) => socket.on('message', (data) => frames.push(String(data))));
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return { server, port: (server.address() as AddressInfo).port, frames };
}

async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

let client: RealtimeClient | undefined;
let current: WebSocketServer | undefined;

afterEach(async () => {
  client?.dispose();
  await new Promise<void>((resolve) => (current ? current.close(() => resolve()) : resolve()));
});

describe('the realtime client against a dropped server', () => {
  it('reconnects after the server goes away and comes back, and rejoins its job room', async () => {
    // Prepare: a connected client holding one job room.
    const first = await serve();
    current = first.server;
    client = new RealtimeClient({
      url: () => `ws://127.0.0.1:${first.port}/ws`,
      createSocket: (url, protocols) => new WebSocket(url, protocols) as unknown as SocketLike,
      random: () => 0.5,
    });
    client.setIdentity({ key: 'worker:w1', protocols: ['fixly.v1', 'token.t'], register: { userId: 'w1', role: 'worker' } });
    client.joinRoom('AbCdEfGhIjKlMnOpQrStUv', 'worker');
    await until(() => client!.getSnapshot().status === 'connected' && first.frames.some((f) => f.includes('join:jobRoom')));

    // Act: the server drops every socket and stops; then it comes back on the same port.
    for (const socket of first.server.clients) socket.terminate();
    await new Promise<void>((resolve) => first.server.close(() => resolve()));
    await until(() => client!.getSnapshot().status === 'reconnecting');
    const second = await serve(first.port);
    current = second.server;

    // Assess: back by itself (the first retry waits about 1 s), registered and in its room again.
    await until(() => client!.getSnapshot().status === 'connected');
    await until(() => second.frames.some((f) => f.includes('join:jobRoom')));
    expect(second.frames.map((f) => JSON.parse(f).event)).toEqual(expect.arrayContaining(['register:user', 'join:jobRoom']));
    expect(second.frames.find((f) => f.includes('join:jobRoom'))).toContain('AbCdEfGhIjKlMnOpQrStUv');
  });
});
