import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { customerFor, type IssuedCustomer } from './auth/customer';
import { WriteCancelled } from './data/transact';
import { BadRequestError } from './errors';
import { newId } from './ids';
import { declareTableUse } from '../../shared/entities';

/**
 * Creating calls (a booking, a request, a hire) are safe to send again. The browser sends an
 * Idempotency-Key, one per submission, and the same one when the person presses again after a
 * timeout or a 503: the ids of what the call creates are derived from it (and from the customer),
 * so the retry's conditional write meets the first one's items instead of making a second booking.
 * A first-time visitor's retry arrives without the cookie the lost answer carried: the identity
 * their key minted is found again (functions/common/auth/customer.ts). Without a key, every call creates afresh.
 */
const KEY = /^[A-Za-z0-9_-]{16,64}$/;

export interface CreateIds {
  customer: IssuedCustomer;
  /** The id of the item this label names: derived from the key, or fresh without one. */
  id(label: string): string;
  keyed: boolean;
}

function derived(label: string, scope: string, key: string): string {
  return createHash('sha256').update(`${label}\0${scope}\0${key}`).digest('base64url').slice(0, 22);
}

/** `known`: the caller's existing customer id, as existingCustomer read it. */
export async function createIds(event: Pick<APIGatewayProxyEventV2, 'headers'>, known: string | undefined): Promise<CreateIds> {
  const key = event.headers?.['idempotency-key'];
  if (key !== undefined && !KEY.test(key)) {
    throw new BadRequestError('The Idempotency-Key header must be 16 to 64 letters, digits, - or _ (a UUID will do).');
  }
  const customer = await customerFor(known, key);
  return { customer, keyed: key !== undefined, id: (label) => (key ? derived(label, customer.id, key) : newId()) };
}

/**
 * What a repeated keyed call answers: the item its first call made (found by `find`), when the
 * write was refused because that item exists. Anything else is thrown on.
 */
export async function earlierResult<T>(ids: CreateIds, error: unknown, find: () => Promise<T | undefined>): Promise<T> {
  if (ids.keyed && error instanceof WriteCancelled) {
    const earlier = await find();
    if (earlier !== undefined) return earlier;
  }
  throw error;
}

/** Touches the table only at keys its callers give, so their declarations cover it (infra/table-grants.ts). */
export const tableUse = declareTableUse({});
