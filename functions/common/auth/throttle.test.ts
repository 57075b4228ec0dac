import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TooManyRequestsError } from '../errors';
import { limits, loginThrottle, throttleClock, WINDOW_SECONDS } from './throttle';

const start = Date.UTC(2026, 10, 22, 16, 3, 17);
let clock: ReturnType<typeof vi.spyOn>;
const at = (seconds: number) => clock.mockReturnValue(start + seconds * 1000);

const scope = () => `test-${randomUUID()}`;
const address = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;

/** An attempt that turns out wrong: its place stays taken. Resolves to the 429 when refused. */
async function fail(s: string, account: string, from: string, device?: string): Promise<TooManyRequestsError | undefined> {
  try {
    await loginThrottle.begin(s, { account, address: from, ...(device ? { device } : {}) });
    return undefined;
  } catch (error) {
    if (error instanceof TooManyRequestsError) return error;
    throw error;
  }
}

describe('login throttling', () => {
  beforeEach(() => {
    clock = vi.spyOn(throttleClock, 'now').mockReturnValue(start);
  });
  afterEach(() => vi.restoreAllMocks());

  it('refuses the 6th attempt on one account from one address with the wait until the window ends', async () => {
    // Prepare
    const s = scope();
    const ip = address();
    for (let i = 0; i < limits.accountAddress; i++) expect(await fail(s, 'owner', ip)).toBeUndefined();
    at(120);

    // Act
    const refused = await fail(s, 'owner', ip);

    // Assess
    expect(refused?.status).toBe(429);
    expect(refused?.retryAfterSeconds).toBe(WINDOW_SECONDS - 120);
    expect(refused?.message).toBe('Too many failed attempts. Try again in 13 minutes.');
  });

  it('lets the account try again from that address once the 15-minute window is over', async () => {
    // Prepare
    const s = scope();
    const ip = address();
    for (let i = 0; i < limits.accountAddress; i++) await fail(s, 'owner', ip);
    at(WINDOW_SECONDS - 1);
    expect(await fail(s, 'owner', ip)).toBeInstanceOf(TooManyRequestsError);

    // Act
    at(WINDOW_SECONDS);
    const next = await fail(s, 'owner', ip);

    // Assess: a new window, with its own 5
    expect(next).toBeUndefined();
    for (let i = 1; i < limits.accountAddress; i++) expect(await fail(s, 'owner', ip)).toBeUndefined();
    expect(await fail(s, 'owner', ip)).toBeInstanceOf(TooManyRequestsError);
  });

  it('does not hold the account back at another address', async () => {
    const s = scope();
    for (let i = 0; i < limits.accountAddress; i++) await fail(s, 'owner', '203.0.113.1');

    expect(await fail(s, 'owner', '203.0.113.2')).toBeUndefined();
  });

  it('counts the name regardless of case', async () => {
    const s = scope();
    const ip = address();
    for (let i = 0; i < limits.accountAddress; i++) await fail(s, i % 2 ? 'Owner' : 'OWNER', ip);

    expect(await fail(s, 'owner', ip)).toBeInstanceOf(TooManyRequestsError);
  });

  it('refuses an address after 20 failures over different accounts, until its window ends', async () => {
    // Prepare
    const s = scope();
    const ip = address();
    for (let i = 0; i < limits.address; i++) expect(await fail(s, `name-${i}`, ip)).toBeUndefined();

    // Act
    const refused = await fail(s, 'someone-new', ip);
    at(WINDOW_SECONDS);
    const later = await fail(s, 'someone-new', ip);

    // Assess
    expect(refused?.retryAfterSeconds).toBe(WINDOW_SECONDS);
    expect(later).toBeUndefined();
  });

  it('refuses an account after 50 failures spread over many addresses', async () => {
    // Prepare: ten addresses, five each
    const s = scope();
    for (let i = 0; i < limits.account; i++) expect(await fail(s, 'owner', `192.0.2.${Math.floor(i / 5) + 1}`)).toBeUndefined();

    // Act
    const refused = await fail(s, 'owner', '192.0.2.200');

    // Assess
    expect(refused).toBeInstanceOf(TooManyRequestsError);
  });

  it('gives back the places of a refused attempt: a full pair does not eat into the address limit', async () => {
    // Prepare: the pair is full; 30 more refused attempts on it
    const s = scope();
    const ip = address();
    for (let i = 0; i < limits.accountAddress; i++) await fail(s, 'owner', ip);
    for (let i = 0; i < 30; i++) expect(await fail(s, 'owner', ip)).toBeInstanceOf(TooManyRequestsError);

    // Act: the address still has 15 of its 20
    const results = [];
    for (let i = 0; i < limits.address - limits.accountAddress; i++) results.push(await fail(s, `other-${i}`, ip));

    // Assess
    expect(results.every((r) => r === undefined)).toBe(true);
    expect(await fail(s, 'yet-another', ip)).toBeInstanceOf(TooManyRequestsError);
  });

  it('lets no more than 5 of 30 parallel guesses through', async () => {
    // Prepare
    const s = scope();
    const ip = address();

    // Act
    const results = await Promise.all(Array.from({ length: 30 }, () => fail(s, 'owner', ip)));

    // Assess
    expect(results.filter((r) => r === undefined)).toHaveLength(limits.accountAddress);
  });

  it('clears the pair after a success, but keeps the failures counted against the address', async () => {
    // Prepare: 4 failures on one account, then its right password
    const s = scope();
    const ip = address();
    for (let i = 0; i < 4; i++) await fail(s, 'owner', ip);
    const right = await loginThrottle.begin(s, { account: 'owner', address: ip });

    // Act
    await right.succeeded();

    // Assess: 5 more on that account are allowed; the address has 20 - 4 - 5 = 11 left
    for (let i = 0; i < limits.accountAddress; i++) expect(await fail(s, 'owner', ip)).toBeUndefined();
    for (let i = 0; i < 11; i++) expect(await fail(s, `other-${i}`, ip)).toBeUndefined();
    expect(await fail(s, 'other-last', ip)).toBeInstanceOf(TooManyRequestsError);
  });

  it('counts an attempt with a device cookie against that cookie alone, whatever the name and address counters hold', async () => {
    // Prepare: the name is locked out from everywhere, the address too
    const s = scope();
    const ip = address();
    for (let i = 0; i < limits.account; i++) await fail(s, 'owner', `192.0.2.${Math.floor(i / 5) + 1}`);
    for (let i = 0; i < limits.address; i++) await fail(s, `name-${i}`, ip);
    expect(await fail(s, 'owner', address())).toBeInstanceOf(TooManyRequestsError);

    // Act
    const results = [];
    for (let i = 0; i < limits.device; i++) results.push(await fail(s, 'owner', ip, 'device-a'));

    // Assess
    expect(results.every((r) => r === undefined)).toBe(true);
  });

  it('refuses a device cookie after 5 failures until its window ends, and only that one', async () => {
    // Prepare
    const s = scope();
    const ip = address();
    for (let i = 0; i < limits.device; i++) expect(await fail(s, 'owner', ip, 'device-a')).toBeUndefined();
    at(60);

    // Act
    const refused = await fail(s, 'owner', ip, 'device-a');
    const otherDevice = await fail(s, 'owner', ip, 'device-b');
    const noDevice = await fail(s, 'owner', ip);
    at(WINDOW_SECONDS);
    const later = await fail(s, 'owner', ip, 'device-a');

    // Assess
    expect(refused?.retryAfterSeconds).toBe(WINDOW_SECONDS - 60);
    expect(refused?.message).toBe('Too many failed attempts. Try again in 14 minutes.');
    expect(otherDevice).toBeUndefined();
    expect(noDevice).toBeUndefined();
    expect(later).toBeUndefined();
  });

  it("forgets a device cookie's failures when its attempt succeeds", async () => {
    // Prepare
    const s = scope();
    const ip = address();
    for (let i = 0; i < limits.device - 1; i++) await fail(s, 'owner', ip, 'device-a');
    const right = await loginThrottle.begin(s, { account: 'owner', address: ip, device: 'device-a' });

    // Act
    await right.succeeded();

    // Assess
    for (let i = 0; i < limits.device; i++) expect(await fail(s, 'owner', ip, 'device-a')).toBeUndefined();
  });
});
