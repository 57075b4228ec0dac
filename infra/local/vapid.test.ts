import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateVapidKeys } from './vapid';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'marketplace-vapid-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadOrCreateVapidKeys', () => {
  it('generates keys web-push can sign with on first start, in a file only the owner can read', () => {
    // Prepare
    const dir = path.join(freshDir(), 'push');

    // Act
    const keys = loadOrCreateVapidKeys(dir, 'mailto:ops@example.com');

    // Assess
    expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(keys.privateKey, 'base64url')).toHaveLength(32);
    expect(keys.subject).toBe('mailto:ops@example.com');
    const headers = webpush.getVapidHeaders('https://push.example.test', keys.subject, keys.publicKey, keys.privateKey, 'aes128gcm');
    expect(headers.Authorization).toMatch(/^vapid t=.+, k=/);
    expect(statSync(path.join(dir, 'vapid.json')).mode & 0o077).toBe(0);
  });

  it('answers the same keys on every later start', () => {
    const dir = freshDir();
    const first = loadOrCreateVapidKeys(dir);

    const again = loadOrCreateVapidKeys(dir, 'mailto:someone-else@example.com');

    expect(again).toEqual(first);
  });

  it('refuses a damaged key file with the way out instead of replacing the keys', () => {
    const dir = freshDir();
    writeFileSync(path.join(dir, 'vapid.json'), '{"publicKey": "short"');

    const load = () => loadOrCreateVapidKeys(dir);

    expect(load).toThrow(/vapid\.json does not hold VAPID keys.*Delete it to generate new ones/);
  });
});
