import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../shared/entities';
import { dynamo, tableName } from '../common/clients';
import { customersRepo } from '../common/auth/customers';

/** A customer identity the server issued, as a first booking would have: its id and its cookie. */
export async function issuedCustomer(): Promise<{ customerId: string; cookie: string }> {
  const customerId = await customersRepo.issue();
  return { customerId, cookie: `customer_id=${customerId}` };
}

/** Records an id a test chose as issued (as the server would have on that customer's first call). */
export async function markIssued(customerId: string): Promise<string> {
  await dynamo.send(new PutCommand({ TableName: tableName, Item: { ...keys.customer(customerId), entity: 'customer', id: customerId, issuedAt: new Date().toISOString() } }));
  return `customer_id=${customerId}`;
}
