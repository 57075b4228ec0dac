import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CUSTOMER_COOKIE } from '../../shared/constants';
import { startStackProcess, type RunningStack } from '../testing/local-process';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-crash-'));
const mailDataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-crash-mail-'));
// Geocoding a booking's address must not leave the machine (nothing listens on port 9: it fails at once).
// A one-page site instead of Vite's dev server: the bookings are what this is about, and Vite's
// start-up work would share the two cores with the burst and with stopping.
const webDist = mkdtempSync(path.join(tmpdir(), 'marketplace-crash-web-'));
writeFileSync(path.join(webDist, 'index.html'), '<!doctype html>');
// One customer books far more than the per-customer creation limit allows (10 an hour): the limits
// are scaled up, or the burst would be 429s and never reach the kill.
const OFFLINE_GEOCODER = { GEOCODER_URL: 'http://127.0.0.1:9', WEB_DIST: webDist, CREATION_LIMIT_SCALE: '1000' };

const BURST = 200;
const IN_FLIGHT = 20;
/** The stack is killed as this many bookings have been answered 201; the rest of the burst is in flight or not sent. */
const KILL_AFTER = 60;

/**
 * A port nobody listens on now. A stack on port 0 learns its site's address, which mail links need,
 * only once it listens: after its start-up jobs, the mail sweep among them, have run.
 */
const freePort = () =>
  new Promise<string>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(String(port)));
    });
  });

const bookingBody = (n: number) =>
  JSON.stringify({ name: `Crash ${n}`, phone: '5550101234', address: `${n} Harbour Road`, category: 'cleaning' });

describe('npm start killed mid-burst', () => {
  const started: RunningStack[] = [];
  afterAll(async () => {
    // Whatever a failed run left running is killed before its data dir goes.
    await Promise.all(started.map((stack) => stack.kill()));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(mailDataDir, { recursive: true, force: true });
    rmSync(webDist, { recursive: true, force: true });
  });

  it('keeps every booking it answered 201 when SIGKILLed in the middle of a burst and started again', { timeout: 180_000 }, async () => {
    // Prepare: one customer, as one browser booking again and again; its cookie comes with the first booking.
    const first = await startStackProcess(dataDir, OFFLINE_GEOCODER);
    started.push(first);
    const opening = await fetch(`${first.url}/api/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bookingBody(0),
    });
    expect(opening.status).toBe(201);
    const cookie = new RegExp(`${CUSTOMER_COOKIE}=[^;]+`).exec(opening.headers.get('set-cookie') ?? '')?.[0];
    expect(cookie).toBeDefined();
    const answered: { id: string; name: string }[] = [{ id: ((await opening.json()) as { id: string }).id, name: 'Crash 0' }];

    // Act: IN_FLIGHT callers share the burst; the stack is SIGKILLed as the KILL_AFTER-th 201 arrives.
    let next = 1;
    let killed: Promise<NodeJS.Signals | null> | undefined;
    const refused: number[] = [];
    const caller = async () => {
      while (!killed && next < BURST) {
        const n = next++;
        try {
          const response = await fetch(`${first.url}/api/bookings`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie: cookie! },
            body: bookingBody(n),
          });
          // Answered means the 201 and its body both arrived: only then does the caller know the booking's id.
          const body = (await response.json()) as { id: string };
          if (response.status !== 201) {
            refused.push(response.status);
            continue;
          }
          answered.push({ id: body.id, name: `Crash ${n}` });
          if (answered.length >= KILL_AFTER) killed ??= first.kill();
        } catch {
          // The connection died with the stack (reset, refused, or a body cut short): not answered.
          if (!killed) throw new Error(`Booking ${n} failed before the stack was killed`);
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, caller));
    const signal = await killed;

    const second = await startStackProcess(dataDir, OFFLINE_GEOCODER);
    started.push(second);
    const found = await Promise.all(
      answered.map(async ({ id }) => {
        const response = await fetch(`${second.url}/api/bookings/${id}`, { headers: { cookie: cookie! } });
        return { status: response.status, body: (await response.json()) as { id: string; name: string } };
      }),
    );
    // The restarted stack still takes bookings for the same customer.
    const after = await fetch(`${second.url}/api/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: cookie! },
      body: bookingBody(BURST),
    });
    const exitCode = await second.stop();

    // Assess
    expect(signal).toBe('SIGKILL');
    expect(refused).toEqual([]);
    expect(answered.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(new Set(answered.map((a) => a.id)).size).toBe(answered.length);
    expect(found.map((f) => f.status)).toEqual(answered.map(() => 200));
    expect(found.map((f) => ({ id: f.body.id, name: f.body.name }))).toEqual(answered);
    expect(after.status).toBe(201);
    expect(exitCode, second.output()).toBe(0);
  });

  it('sends the mail of every booking it answered 201, once, when SIGKILLed while mail was leaving the outbox and started again', { timeout: 180_000 }, async () => {
    // Prepare: one customer books, each booking with an address of its own, so its "received" mail is told apart.
    const mailTo = (n: number) => `crash-mail-${n}@example.com`;
    const bookingWithMail = (n: number) => JSON.stringify({ ...(JSON.parse(bookingBody(n)) as object), email: mailTo(n) });
    /** The addresses the local SES kept a "received" mail for (its index, rewritten atomically), one entry per message. */
    const mailedAddresses = () => {
      const index = path.join(mailDataDir, 'ses', 'index.json');
      if (!existsSync(index)) return [];
      const kept = JSON.parse(readFileSync(index, 'utf8')) as { to: string[]; tags: Record<string, string> }[];
      // Each booking also ends in a "no pro found" mail, the dispatch finding nobody offline.
      return kept.filter((m) => m.tags.kind === 'booking-received').flatMap((m) => m.to);
    };
    const first = await startStackProcess(mailDataDir, { ...OFFLINE_GEOCODER, PORT: await freePort() });
    started.push(first);
    const opening = await fetch(`${first.url}/api/bookings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bookingWithMail(0) });
    expect(opening.status).toBe(201);
    const cookie = new RegExp(`${CUSTOMER_COOKIE}=[^;]+`).exec(opening.headers.get('set-cookie') ?? '')?.[0];
    const answered = [0];

    // Act: a burst, SIGKILLed as the KILL_AFTER-th booking is answered, while the stream still sends their mail.
    let next = 1;
    let killed: Promise<NodeJS.Signals | null> | undefined;
    const caller = async () => {
      while (!killed && next < BURST) {
        const n = next++;
        try {
          const response = await fetch(`${first.url}/api/bookings`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie: cookie! },
            body: bookingWithMail(n),
          });
          await response.json();
          if (response.status === 201) answered.push(n);
          if (answered.length >= KILL_AFTER) killed ??= first.kill();
        } catch {
          if (!killed) throw new Error(`Booking ${n} failed before the stack was killed`);
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, caller));
    const signal = await killed;
    const mailedAtKill = new Set(mailedAddresses());
    const second = await startStackProcess(mailDataDir, { ...OFFLINE_GEOCODER, PORT: await freePort() });
    started.push(second);
    // The sweep at start sends what the first stack left; it is done when every answered booking's mail is out.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !answered.every((n) => mailedAddresses().includes(mailTo(n)))) await new Promise((r) => setTimeout(r, 500));
    const exitCode = await second.stop();

    // Assess
    expect(signal).toBe('SIGKILL');
    expect(answered.filter((n) => !mailedAtKill.has(mailTo(n))).length, 'mail still in the outbox when the stack was killed').toBeGreaterThan(0);
    const mailed = mailedAddresses();
    const times = answered.map((n) => mailed.filter((to) => to === mailTo(n)).length);
    expect(times.filter((t) => t === 0), second.output()).toEqual([]);
    // Exactly once, but for at most the one mail the stream was sending at the kill (it sends one
    // at a time): SES may have taken it before the mail could be marked sent, and nothing can tell.
    expect(times.filter((t) => t > 1).length).toBeLessThanOrEqual(1);
    expect(Math.max(...times)).toBeLessThanOrEqual(2);
    expect(exitCode, second.output()).toBe(0);
  });
});
