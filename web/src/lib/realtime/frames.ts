import type { ClientEvent, ClientMessage, ServerEvent, ServerMessage } from '../../../../shared/realtime';

/**
 * Frames of /ws, both ways `{ event, data }` (shared/realtime.ts). Only the types come from the
 * shared module: its zod schemas are the server's to check, and would be dead weight here.
 */
export type ClientData<E extends ClientEvent> = Extract<ClientMessage, { event: E }>['data'];

export function encodeFrame<E extends ClientEvent>(event: E, data: ClientData<E>): string {
  return JSON.stringify({ event, data: data ?? {} });
}

/**
 * A server frame, or null for anything that is not one (not JSON, no event name, no object data).
 * The server is trusted for the payload's shape; a frame that is not even a frame is dropped
 * rather than thrown, so one bad frame cannot end the socket's message loop.
 */
export function parseServerFrame(raw: unknown): ServerMessage | null {
  if (typeof raw !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { event, data } = parsed as { event?: unknown; data?: unknown };
  if (typeof event !== 'string' || !event) return null;
  const payload = data === undefined ? {} : data;
  if (typeof payload !== 'object' || payload === null) return null;
  return { event: event as ServerEvent, data: payload } as ServerMessage;
}
