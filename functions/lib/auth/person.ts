import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { RealtimeRole } from '../../../shared/realtime';
import { existingCustomer } from '../customer';
import { ownerFrom, workerFrom } from './caller';

/**
 * Who is signed in, for calls that belong to whoever calls them (invoices, notifications, push):
 * a worker's token first (a worker's browser may also carry a customer cookie), then the owner's
 * session, then the customer cookie.
 */
export interface Person {
  role: RealtimeRole;
  id: string;
}

export async function signedInPerson(event: Pick<APIGatewayProxyEventV2, 'cookies' | 'headers'>): Promise<Person | undefined> {
  const worker = await workerFrom(event);
  if (worker) return { role: 'worker', id: worker.subjectId };
  if (await ownerFrom(event)) return { role: 'owner', id: 'owner' };
  const customerId = await existingCustomer(event);
  return customerId ? { role: 'customer', id: customerId } : undefined;
}
