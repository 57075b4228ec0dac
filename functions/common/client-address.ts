import { isIPv4, isIPv6 } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { VIEWER_ADDRESS_HEADER } from '../../shared/edge';
import { logger } from './logger';

type Source = Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>;

/**
 * Who is calling, as a network address: the one place every per-address limit and every access log
 * asks. Behind CloudFront, API Gateway's `sourceIp` is the edge server's address, shared by every
 * visitor that edge serves; the visitor's own is the header the edge writes
 * (shared/edge.ts VIEWER_ADDRESS_HEADER). The header is believed because a request reaches a handler
 * only with the origin secret (functions/common/origin-verify.ts), that is through the distribution,
 * whose viewer-request function replaces whatever a client sent under that name.
 *
 * Without a readable header (a misconfigured edge) the answer is `sourceIp`: every visitor of that
 * edge then shares one count, which is stricter, never looser, and the warning says why.
 */
export function clientAddress(event: Source): string {
  const written = event.headers?.[VIEWER_ADDRESS_HEADER];
  const address = written === undefined ? undefined : parseAddress(written);
  if (address) return address;
  const fallback = event.requestContext.http.sourceIp;
  logger.warn('No viewer address from the edge: counting by the connecting address', {
    header: VIEWER_ADDRESS_HEADER,
    present: written !== undefined,
  });
  return parseAddress(fallback) ?? fallback;
}

/**
 * The address the limits count: an IPv4 address, or an IPv6 address's /64 network. One IPv6
 * subscriber is handed a whole /64 (2^64 addresses) and picks any of them at will, so counting single
 * IPv6 addresses would give one person an unlimited supply of fresh counts.
 */
export function clientNetwork(event: Source): string {
  const address = clientAddress(event);
  return isIPv6(address) ? ipv6Network64(address) : address;
}

/**
 * An address as the edge writes it: a bare IPv4 or IPv6 address, no port (with one, `2001:db8::1:443`
 * would itself read as an IPv6 address). IPv4 in IPv6 form (`::ffff:1.2.3.4`, as a dual-stack socket
 * reports it) is the IPv4 address. Anything else is no address.
 */
export function parseAddress(value: string): string | undefined {
  const text = value.trim();
  if (isIPv4(text)) return text;
  if (!isIPv6(text)) return undefined;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text);
  return mapped && isIPv4(mapped[1]!) ? mapped[1]! : text.toLowerCase();
}

/** `2001:db8:1:2:3:4:5:6` → `2001:db8:1:2::/64`: the first four groups, written in full. */
function ipv6Network64(address: string): string {
  const [head = '', tail] = address.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (…:1.2.3.4) is the last 32 bits, beyond the first four groups either way.
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}
