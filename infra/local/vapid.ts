import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { writePrivateFile } from './private-file';

/**
 * The local runtime's VAPID keys: generated with web-push on first start and kept in
 * `<dir>/vapid.json` (under .data/), so browsers'
 * subscriptions (made with the public key) keep working across restarts. A damaged file is reported,
 * never silently replaced: new keys would orphan every subscription made with the old ones.
 */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** Who push services may contact about our messages (a mailto: or https: URL). */
  subject: string;
}

const FILE = 'vapid.json';
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function valid(keys: Partial<VapidKeys>): keys is VapidKeys {
  const bytes = (value: unknown) => (typeof value === 'string' && BASE64URL.test(value) ? Buffer.from(value, 'base64url').length : 0);
  return bytes(keys.publicKey) === 65 && bytes(keys.privateKey) === 32 && typeof keys.subject === 'string' && /^(mailto:|https:)/.test(keys.subject);
}

export function loadOrCreateVapidKeys(dir: string, subject = `mailto:${process.env.SUPPORT_EMAIL ?? 'support@fixly.app'}`): VapidKeys {
  const file = path.join(dir, FILE);
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== undefined) {
    let stored: Partial<VapidKeys> = {};
    try {
      stored = JSON.parse(text) as Partial<VapidKeys>;
    } catch {
      // reported below
    }
    if (!valid(stored)) {
      throw new Error(`${file} does not hold VAPID keys (publicKey, privateKey, subject). Delete it to generate new ones; browsers then need to enable push again.`);
    }
    return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject: stored.subject };
  }
  const keys: VapidKeys = { ...webpush.generateVAPIDKeys(), subject };
  mkdirSync(dir, { recursive: true });
  writePrivateFile(file, JSON.stringify(keys, null, 2));
  return keys;
}
