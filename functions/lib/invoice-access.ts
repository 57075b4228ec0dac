import type { Person } from './auth/person';
import type { InvoiceItem } from './data/invoices';

/**
 * Invoices belong to three kinds of caller (customer spec: /invoices does not say who may see it):
 * a worker's token sees their own, the owner's session sees every one, the customer cookie sees
 * the customer's own (who is calling: functions/lib/auth/person.ts).
 */
export function mayRead(person: Person | undefined, invoice: InvoiceItem): person is Person {
  switch (person?.role) {
    case 'owner':
      return true;
    case 'worker':
      return invoice.workerId === person.id;
    case 'customer':
      return invoice.customerId === person.id;
    default:
      return false;
  }
}
