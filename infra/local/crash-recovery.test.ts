import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CUSTOMER_COOKIE } from '../../shared/constants';
import { startStackProcess, type RunningStack } from '../testing/local-process';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-crash-'));
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

const bookingBody = (n: number) =>
  JSON.stringify({ name: `Crash ${n}`, phone: '5550101234', address: `${n} Harbour Road`, category: 'cleaning' });

describe('npm start killed mid-burst', () => {
  const started: RunningStack[] = [];
  afterAll(async () => {
    // Whatever a failed run left running is killed before its data dir goes.
    await Promise.all(started.map((stack) => stack.kill()));
    rmSync(dataDir, { recursive: true, force: true });
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
});
