import { describe, expect, it } from 'vitest';
import { isAllowedPushEndpoint } from './push-endpoint';

describe('isAllowedPushEndpoint', () => {
  it.each([
    'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b-token',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABtoken',
    'https://web.push.apple.com/QGuQyavXutnMH-token',
    'https://api.push.apple.com/3/device/token',
    'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB',
  ])("takes a browser vendor's push service on any stage: %s", (endpoint) => {
    expect(isAllowedPushEndpoint(endpoint, false)).toBe(true);
    expect(isAllowedPushEndpoint(endpoint, true)).toBe(true);
  });

  it.each([
    ['a private address over https', 'https://10.0.0.5/push/x'],
    ['loopback over http', 'http://127.0.0.1:4000/push/x'],
    ['loopback over https', 'https://127.0.0.1/push/x'],
    ['localhost', 'http://localhost:3000/push/x'],
    ['the metadata service', 'http://169.254.169.254/latest/meta-data/'],
    ['a push service over http', 'http://fcm.googleapis.com/fcm/send/x'],
    ['a push service on another port', 'https://fcm.googleapis.com:8443/fcm/send/x'],
    ['credentials in the URL', 'https://user:secret@fcm.googleapis.com/fcm/send/x'],
    ["a host ending in a push service's name", 'https://fcm.googleapis.com.evil.example/x'],
    ['a look-alike without the dot', 'https://evilpush.apple.com/x'],
    ['a push service in the path only', 'https://evil.example/web.push.apple.com/x'],
    ['no URL at all', 'not a url'],
  ])('refuses %s outside the local runtime', (_what, endpoint) => {
    expect(isAllowedPushEndpoint(endpoint, false)).toBe(false);
  });

  it("takes the local runtime's loopback stand-in only in the local runtime, and nothing else it would refuse elsewhere", () => {
    expect(isAllowedPushEndpoint('http://127.0.0.1:4000/push/x', true)).toBe(true);
    expect(isAllowedPushEndpoint('http://localhost:4000/push/x', true)).toBe(true);
    expect(isAllowedPushEndpoint('https://10.0.0.5/push/x', true)).toBe(false);
    expect(isAllowedPushEndpoint('http://10.0.0.5/push/x', true)).toBe(false);
    expect(isAllowedPushEndpoint('http://169.254.169.254/latest/meta-data/', true)).toBe(false);
  });
});
