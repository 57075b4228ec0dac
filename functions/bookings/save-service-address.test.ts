import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVICE_ADDRESS_CHANGES_PER_DAY } from '../../shared/domain/service-areas';
import { handler as getServiceAddress } from './get-service-address';
import { handler as listWorkers } from '../workers/list-worker-profiles';
import { handler, SAVES_PER_NETWORK_PER_DAY } from './save-service-address';
import { throttleClock } from '../common/auth/throttle';
import { serviceAddressesRepo } from './data/service-addresses';
import { issuedCustomer } from '../testing/customers';
import { dispatchableWorker, north, testPlace } from '../testing/dispatch';
import { fromAddress, invoke, sampleEvent, withBody } from '../testing/events';

const sample = sampleEvent('save-service-address');

/** Each test from a network address of its own: saves are counted per address too. */
const networkAddress = () => `2001:db8:5a:${Math.floor(Math.random() * 0xffff).toString(16)}::${Math.floor(Math.random() * 0xffff).toString(16)}`;

function saving(body: unknown, options: { cookie?: string; from: string }): APIGatewayProxyEventV2 {
  const event = withBody(sample, body);
  return fromAddress({ ...event, ...(options.cookie ? { cookies: [options.cookie] } : {}) }, options.from);
}

const addressAt = (at: { lat: number; lng: number }, address = '1 Ferry Building, San Francisco') => ({ address, latitude: at.lat, longitude: at.lng });

/** The customer_id=… part of a Set-Cookie header. */
const cookieOf = (setCookie: string) => setCookie.split(';')[0]!;

afterEach(() => vi.restoreAllMocks());

describe('PUT /api/customer/service-address', () => {
  it("saves a first-time visitor's address and issues their customer identity, from which the worker list then measures", async () => {
    // Prepare
    const place = testPlace();
    const pro = await dispatchableWorker('electrical', north(place, 1));
    const from = networkAddress();

    // Act
    const res = await invoke(handler, saving(addressAt(place), { from }));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ serviceAddress: { address: '1 Ferry Building, San Francisco', savedAt: expect.any(String) } });
    expect(res.cookies).toHaveLength(1);
    expect(res.cookies[0]).toMatch(/^customer_id=[A-Za-z0-9_-]{22};.*HttpOnly/);
    const cookie = cookieOf(res.cookies[0]!);
    const mine = await invoke(getServiceAddress, { ...sampleEvent('get-service-address'), cookies: [cookie] });
    expect(mine.body).toEqual(res.body);
    const listed = await invoke(
      listWorkers,
      fromAddress({ ...sampleEvent('list-worker-profiles'), queryStringParameters: { category: 'electrical' }, cookies: [cookie] }, from),
    );
    expect(listed.body.find((w: { id: string }) => w.id === pro.id)).toMatchObject({ distanceBand: { id: 'under-5' } });
  });

  it(`lets a customer move their address ${SERVICE_ADDRESS_CHANGES_PER_DAY} times a day, then answers 429 with Retry-After and keeps the last one saved`, async () => {
    // Prepare
    const { customerId, cookie } = await issuedCustomer();
    const from = networkAddress();
    const start = testPlace();
    for (let i = 0; i < SERVICE_ADDRESS_CHANGES_PER_DAY; i++) {
      expect((await invoke(handler, saving(addressAt(north(start, i * 10), `${i} Main Street`), { cookie, from }))).status).toBe(200);
    }

    // Act
    const refused = await invoke(handler, saving(addressAt(north(start, 100), '99 Main Street'), { cookie, from }));

    // Assess
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(refused.body.message).toBe(
      `You can change your service address ${SERVICE_ADDRESS_CHANGES_PER_DAY} times a day. Try again in 24 hours; until then distances are measured from the address you saved last.`,
    );
    expect(refused.cookies).toEqual([]);
    expect(await serviceAddressesRepo.find(customerId)).toMatchObject({ address: `${SERVICE_ADDRESS_CHANGES_PER_DAY - 1} Main Street` });
  });

  it('lets the customer move it again once the day since their first change is over', async () => {
    // Prepare
    const start = Date.now();
    const clock = vi.spyOn(throttleClock, 'now').mockReturnValue(start);
    const { customerId, cookie } = await issuedCustomer();
    const from = networkAddress();
    const place = testPlace();
    for (let i = 0; i <= SERVICE_ADDRESS_CHANGES_PER_DAY; i++) await invoke(handler, saving(addressAt(north(place, i)), { cookie, from }));
    clock.mockReturnValue(start + 24 * 3600 * 1000);

    // Act
    const res = await invoke(handler, saving(addressAt(north(place, 50), '50 North Road'), { cookie, from }));

    // Assess
    expect(res.status).toBe(200);
    expect(await serviceAddressesRepo.find(customerId)).toMatchObject({ address: '50 North Road' });
  });

  it('counts no change for saving the same position again, reworded or not', async () => {
    // Prepare
    const { customerId, cookie } = await issuedCustomer();
    const from = networkAddress();
    const place = testPlace();
    await invoke(handler, saving(addressAt(place), { cookie, from }));

    // Act: the same place many times, then every real move the day allows but the first one
    for (let i = 0; i < 5; i++) expect((await invoke(handler, saving(addressAt(place, `Apartment ${i}, 1 Ferry Building`), { cookie, from }))).status).toBe(200);
    const moves = [];
    for (let i = 1; i < SERVICE_ADDRESS_CHANGES_PER_DAY; i++) moves.push((await invoke(handler, saving(addressAt(north(place, i)), { cookie, from }))).status);

    // Assess
    expect(moves.every((status) => status === 200)).toBe(true);
    expect((await serviceAddressesRepo.find(customerId))?.lat).toBeCloseTo(north(place, SERVICE_ADDRESS_CHANGES_PER_DAY - 1).lat, 9);
  });

  it('limits saves from one network address across new identities, so clearing the cookie gives no fresh allowance', async () => {
    // Prepare: as many first-time saves as one address may make in a day, each without a cookie
    const from = networkAddress();
    const place = testPlace();
    for (let i = 0; i < SAVES_PER_NETWORK_PER_DAY; i++) expect((await invoke(handler, saving(addressAt(north(place, i)), { from }))).status).toBe(200);

    // Act
    const refused = await invoke(handler, saving(addressAt(north(place, 99)), { from }));
    const elsewhere = await invoke(handler, saving(addressAt(north(place, 99)), { from: networkAddress() }));

    // Assess: refused before an identity is issued
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many service addresses were saved from your network today\. Try again in \d+ hours?\.$/);
    expect(refused.cookies).toEqual([]);
    expect(elsewhere.status).toBe(200);
  });

  it('refuses an address without its position, or a position written as the address, with 400 saying what to do', async () => {
    // Act
    const typed = await invoke(handler, saving({ address: '1 Ferry Building' }, { from: networkAddress() }));
    const raw = await invoke(handler, saving({ address: '37.7955, -122.3937', latitude: 37.7955, longitude: -122.3937 }, { from: networkAddress() }));

    // Assess
    expect(typed.status).toBe(400);
    expect(typed.body.fields.latitude).toBe('Choose the address from the suggestions or use your location');
    expect(raw.status).toBe(400);
    expect(raw.body.fields.address).toBe('Type the street address: a position is not an address.');
    expect(typed.cookies).toEqual([]);
  });
});
