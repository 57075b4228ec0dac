import type { ServerMessage } from '../../shared/realtime';
import { env } from '../common/env';

/**
 * /ws connections for handler tests, which have no browser: the local WebSocket API's inspection
 * API (infra/local/websocket.ts, `/_local/...`, local only) registers connections that record what
 * is posted to them through @connections, exactly as a browser would receive it.
 */
function endpoint(): string {
  if (!env.WEBSOCKET_ENDPOINT) throw new Error('WEBSOCKET_ENDPOINT is not set: the test global setup starts the local WebSocket API');
  return env.WEBSOCKET_ENDPOINT;
}

async function call(method: string, path: string): Promise<Response> {
  const res = await fetch(`${endpoint()}/_local/connections${path}`, { method });
  if (!res.ok) throw new Error(`${method} /_local/connections${path}: ${res.status} ${await res.text()}`);
  return res;
}

/** A new connection id the management API accepts posts for (put it in rooms with connectionsRepo). */
export async function openTestConnection(): Promise<string> {
  const { connectionId } = (await (await call('POST', '')).json()) as { connectionId: string };
  return connectionId;
}

/** Every frame posted to the connection so far, oldest first, parsed. */
export async function framesOf(connectionId: string): Promise<ServerMessage[]> {
  const { frames } = (await (await call('GET', `/${encodeURIComponent(connectionId)}/frames`)).json()) as { frames: string[] };
  return frames.map((text) => {
    try {
      return JSON.parse(text) as ServerMessage;
    } catch {
      throw new Error(`A frame posted to ${connectionId} is not JSON: ${text.slice(0, 200)}`);
    }
  });
}

/** Makes the connection gone, as a closed browser tab: the next post to it answers 410. */
export async function dropTestConnection(connectionId: string): Promise<void> {
  await call('DELETE', `/${encodeURIComponent(connectionId)}`);
}
