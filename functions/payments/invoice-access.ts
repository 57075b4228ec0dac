import type { Caller } from '../common/auth/caller-types';
import type { InvoiceItem } from './data/invoices';

/**
 * Invoices belong to three kinds of caller: a worker's token sees their own, the owner's session
 * sees every one, the customer cookie sees the customer's own (routes open to 'anyone' identify them).
 */
export function mayRead(caller: Caller, invoice: InvoiceItem): caller is Exclude<Caller, { role: 'anonymous' }> {
  switch (caller.role) {
    case 'owner':
      return true;
    case 'worker':
      return invoice.workerId === caller.id;
    case 'customer':
      return invoice.customerId === caller.id;
    default:
      return false;
  }
}
