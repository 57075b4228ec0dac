import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt at one of OWASP's equivalent settings (N=2^15, r=8, p=3: 32 MiB, the cost of N=2^17 p=1
 * with a quarter of the memory). It is one thread of CPU work, so every function that loads this
 * module gets one whole vCPU (PASSWORD_HASHING_MEMORY_MB in shared/routes.ts; README: Performance,
 * `BENCH_ONLY=passwords`). The parameters are stored with each hash, so they can be raised later
 * without invalidating old passwords.
 */
const params = { N: 2 ** 15, r: 8, p: 3 } as const;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

const maxmem = (o: { N: number; r: number }) => 256 * o.N * o.r;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, { ...params, maxmem: maxmem(params) });
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), { ...options, maxmem: maxmem(options) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A real hash of nothing, so a login for an unknown name costs what a wrong password costs. */
let decoy: Promise<string> | undefined;
export async function spendVerifyTime(password: string): Promise<false> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoy);
  return false;
}
