import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { signedInPerson } from './auth/person';
import type { InvoiceItem } from './data/invoices';
import type { InvoiceViewer } from './invoice-views';

/**
 * Invoices belong to three kinds of caller (customer spec: /invoices does not say who may see it):
 * a worker's token sees their own, the owner's session sees every one, the customer cookie sees
 * the customer's own. A token is checked first: a worker's browser may also carry a customer cookie.
 */
export type InvoiceReader =
  | { viewer: 'worker'; workerId: string }
  | { viewer: 'owner' }
  | { viewer: 'customer'; customerId: string }
  | { viewer: 'nobody' };

export async function invoiceReader(event: APIGatewayProxyEventV2): Promise<InvoiceReader> {
  const person = await signedInPerson(event);
  switch (person?.role) {
    case 'worker':
      return { viewer: 'worker', workerId: person.id };
    case 'owner':
      return { viewer: 'owner' };
    case 'customer':
      return { viewer: 'customer', customerId: person.id };
    default:
      return { viewer: 'nobody' };
  }
}

export function mayRead(reader: InvoiceReader, invoice: InvoiceItem): reader is Exclude<InvoiceReader, { viewer: 'nobody' }> {
  switch (reader.viewer) {
    case 'owner':
      return true;
    case 'worker':
      return invoice.workerId === reader.workerId;
    case 'customer':
      return invoice.customerId === reader.customerId;
    default:
      return false;
  }
}

export function viewerOf(reader: Exclude<InvoiceReader, { viewer: 'nobody' }>): InvoiceViewer {
  return reader.viewer;
}
