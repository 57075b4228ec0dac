import { randomInt } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { VIEWER_ADDRESS_HEADER } from '../../shared/edge';
import { handler as findTrackedRequest } from '../bookings/find-tracked-request';
import { limits } from './auth/throttle';
import { clientAddress, clientNetwork, parseAddress } from './client-address';
import { fromAddress, invoke, sampleEvent, withBody } from '../testing/events';

/** One CloudFront edge server: what API Gateway reports as sourceIp for every visitor it serves. */
const EDGE = '130.176.0.7';

function viaEdge(viewer: string | undefined): Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'> {
  const sample = sampleEvent('find-tracked-request');
  const { [VIEWER_ADDRESS_HEADER]: _written, ...headers } = sample.headers;
  return {
    headers: viewer === undefined ? headers : { ...headers, [VIEWER_ADDRESS_HEADER]: viewer },
    requestContext: { ...sample.requestContext, http: { ...sample.requestContext.http, sourceIp: EDGE } },
  };
}

describe("the caller's address", () => {
  it("is the visitor's address the edge wrote, not the edge server's own", () => {
    expect(clientAddress(viaEdge('203.0.113.9'))).toBe('203.0.113.9');
    expect(clientAddress(viaEdge('2001:DB8::9'))).toBe('2001:db8::9');
  });

  it('reads IPv4 in the IPv6 form a dual-stack socket reports as the IPv4 address', () => {
    expect(parseAddress('::ffff:198.51.100.4')).toBe('198.51.100.4');
  });

  it.each(['', 'not-an-address', '203.0.113.9:443', '[2001:db8::9]:443', '203.0.113.9, 198.51.100.1', '999.1.1.1'])(
    'takes %j for no address, and then counts by the edge server (stricter, never looser)',
    (written) => {
      expect(parseAddress(written)).toBeUndefined();
      expect(clientAddress(viaEdge(written))).toBe(EDGE);
    },
  );

  it('is the edge server when the edge wrote none', () => {
    expect(clientAddress(viaEdge(undefined))).toBe(EDGE);
  });

  it('counts an IPv6 visitor by their /64, which one subscriber holds whole; IPv4 by the address', () => {
    expect(clientNetwork(viaEdge('2001:db8:1:2:aaaa:bbbb:cccc:dddd'))).toBe('2001:db8:1:2::/64');
    expect(clientNetwork(viaEdge('2001:db8:1:2::1'))).toBe('2001:db8:1:2::/64');
    expect(clientNetwork(viaEdge('2001:db8::1'))).toBe('2001:db8:0:0::/64');
    expect(clientNetwork(viaEdge('2001:0db8:0001:0002::1'))).toBe('2001:db8:1:2::/64');
    expect(clientNetwork(viaEdge('203.0.113.9'))).toBe('203.0.113.9');
  });
});

describe('limits behind one CloudFront edge', () => {
  const sample = sampleEvent('find-tracked-request');
  /** A lookup of a job number that does not exist, from `viewer`, through the one edge server. */
  const lookup = (viewer: string, number: string) => {
    const event = fromAddress(withBody(sample, { number, phone: '415-555-0100' }), viewer);
    return invoke(findTrackedRequest, { ...event, requestContext: { ...event.requestContext, http: { ...event.requestContext.http, sourceIp: EDGE } } });
  };
  const aNumber = () => Array.from({ length: 8 }, () => 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'[randomInt(31)]).join('');
  const anIPv4 = () => `198.51.${randomInt(256)}.${randomInt(1, 255)}`;

  it('count each visitor on their own: one who used up their tries does not use up the next visitor\'s', async () => {
    // Prepare: one visitor fails as often as one address may for one number
    const [first, second, number] = [anIPv4(), anIPv4(), aNumber()];
    for (let i = 0; i < limits.accountAddress; i++) expect((await lookup(first, number)).status).toBe(404);

    // Act
    const refused = await lookup(first, number);
    const other = await lookup(second, number);

    // Assess
    expect(refused.status).toBe(429);
    expect(other.status).toBe(404);
  });

  it('count one IPv6 /64 as one visitor, however many of its addresses they use', async () => {
    // Prepare
    const network = `2001:db8:${randomInt(0xffff).toString(16)}:${randomInt(0xffff).toString(16)}`;
    const number = aNumber();
    for (let i = 0; i < limits.accountAddress; i++) expect((await lookup(`${network}::${i + 1}`, number)).status).toBe(404);

    // Act
    const sameNetwork = await lookup(`${network}:ffff:ffff:ffff:ffff`, number);
    const otherNetwork = await lookup(`2001:db8:${randomInt(0xffff).toString(16)}::1`, number);

    // Assess
    expect(sameNetwork.status).toBe(429);
    expect(otherNetwork.status).toBe(404);
  });
});
