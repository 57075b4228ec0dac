import { describe, expect, it } from 'vitest';
import { parseClientFrame } from '../../../../shared/realtime';
import { encodeFrame, parseServerFrame } from './frames';

describe('realtime frames', () => {
  it('encodes client frames the server accepts', () => {
    // Act
    const join = encodeFrame('join_request', { requestId: 'req-1' });
    const ping = encodeFrame('ping', {});

    // Assess
    expect(JSON.parse(join)).toEqual({ event: 'join_request', data: { requestId: 'req-1' } });
    expect(parseClientFrame(join)).toEqual({ ok: true, message: { event: 'join_request', data: { requestId: 'req-1' } } });
    expect(parseClientFrame(ping).ok).toBe(true);
  });

  it('reads a server frame into its event and data', () => {
    // Act
    const message = parseServerFrame(JSON.stringify({ event: 'joined', data: { room: 'job:1' } }));

    // Assess
    expect(message).toEqual({ event: 'joined', data: { room: 'job:1' } });
  });

  it('gives a frame without data an empty object', () => {
    // Act
    const message = parseServerFrame('{"event":"pong"}');

    // Assess
    expect(message).toEqual({ event: 'pong', data: {} });
  });

  it('drops what is not a frame instead of throwing', () => {
    // Act
    const results = ['not json', '42', 'null', '{"data":{}}', '{"event":""}', '{"event":"x","data":"text"}'].map(parseServerFrame);
    const binary = parseServerFrame(new ArrayBuffer(2));

    // Assess
    expect(results).toEqual([null, null, null, null, null, null]);
    expect(binary).toBeNull();
  });
});
