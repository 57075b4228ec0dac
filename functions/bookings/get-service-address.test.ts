import { describe, expect, it } from 'vitest';
import { handler } from './get-service-address';
import { serviceAddressesRepo } from './data/service-addresses';
import { issuedCustomer } from '../testing/customers';
import { testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withCookies } from '../testing/events';

const sample = sampleEvent('get-service-address');

describe('GET /api/customer/service-address', () => {
  it('answers a visitor without a customer identity with no address rather than a 401', async () => {
    const res = await invoke(handler, sample);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ serviceAddress: null });
  });

  it("gives a customer their own saved address and when it was saved, without its position, and nobody else's", async () => {
    // Prepare
    const [mine, other] = await Promise.all([issuedCustomer(), issuedCustomer()]);
    const place = testPlace();
    const saved = await serviceAddressesRepo.save(mine.customerId, '1 Ferry Building, San Francisco', place);

    // Act
    const res = await invoke(handler, withCookies(sample, [mine.cookie]));
    const theirs = await invoke(handler, withCookies(sample, [other.cookie]));

    // Assess
    expect(res.body).toEqual({ serviceAddress: { address: '1 Ferry Building, San Francisco', savedAt: saved.savedAt } });
    expect(JSON.stringify(res.body)).not.toContain(String(place.lat));
    expect(theirs.body).toEqual({ serviceAddress: null });
  });
});
