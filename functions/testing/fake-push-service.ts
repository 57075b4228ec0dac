import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/** http_ece (web-push's own encryption library) has no types; the one call used here. */
interface HttpEce {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer;
}
const ece = createRequire(import.meta.url)('http_ece') as HttpEce;

/** One message as the push service received it. */
export interface ReceivedPush {
  /** The endpoint's path (the push service's subscription id). */
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface FakePushService {
  /** http://127.0.0.1:<port> */
  url: string;
  received: ReceivedPush[];
  /** The status the service answers a message with (201 by default, as real services do); per test. */
  answer: (path: string) => number;
  /** How long each answer waits (ms); with `maxInFlight`, shows whether messages go out at once. */
  delayMs: number;
  /** The most messages the service held open at the same moment. */
  maxInFlight: number;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for a browser vendor's push service (FCM, Mozilla's
 * autopush): it records what it receives and answers with the status the test chooses.
 */
export async function startFakePushService(): Promise<FakePushService> {
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    inFlight++;
    fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      fake.received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      setTimeout(() => {
        inFlight--;
        res.writeHead(fake.answer(path));
        res.end();
      }, fake.delayMs);
    });
  });
  let inFlight = 0;
  const fake: FakePushService = {
    url: '',
    received: [],
    answer: () => 201,
    delayMs: 0,
    maxInFlight: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/**
 * What a browser makes when it subscribes: a P-256 key pair and a 16-byte auth secret, and an
 * endpoint at the push service. `json` is PushSubscription.toJSON(), the body of POST /api/push/subscribe.
 */
export function browserSubscription(service: Pick<FakePushService, 'url'>) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  const endpoint = `${service.url}/push/${randomBytes(12).toString('base64url')}`;
  return {
    endpoint,
    path: new URL(endpoint).pathname,
    json: { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } },
    /** The message as the browser decrypts it (aes128gcm with its private key and auth secret). */
    decrypt(body: Buffer): string {
      return ece.decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth }).toString('utf8');
    },
  };
}

/** A VAPID key pair in the form web-push uses: the raw P-256 public point and private scalar, base64url. */
export function vapidKeyPair(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  // Node drops the scalar's leading zero bytes (1 key in 256 comes out shorter), and web-push
  // refuses a private key that is not exactly 32 bytes: pad it as web-push's own generator does.
  const privateKey = Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()]).subarray(-32);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: privateKey.toString('base64url') };
}

/**
 * Checks a message's `Authorization: vapid t=<JWT>, k=<public key>` as a push service does: the
 * key is ours, the ES256 signature holds, and the token is for this service's origin and unexpired.
 */
export function vapidClaims(authorization: string | undefined, publicKey: string): { aud: string; sub: string; exp: number } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [, token, key] = match as unknown as [string, string, string];
  if (key !== publicKey) throw new Error('signed with another VAPID key');
  const [header, claims, signature] = token.split('.') as [string, string, string];
  const point = Buffer.from(publicKey, 'base64url');
  const jwk = { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') };
  const valid = verify('sha256', Buffer.from(`${header}.${claims}`), { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!valid) throw new Error('VAPID signature does not verify');
  return JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { aud: string; sub: string; exp: number };
}
