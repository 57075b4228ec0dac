import { routeByName } from '../shared/routes';
import { signedInPerson } from './lib/auth/person';
import { invoicesRepo } from './lib/data/invoices';
import { http } from './lib/http';
import { toInvoiceView } from './lib/invoice-views';

/** The caller's invoices, newest first: a worker's own, the owner's all, a customer's own; nobody's none. */
export const handler = http(routeByName('list-invoices'), async ({ event }) => {
  const person = await signedInPerson(event);
  if (!person) return [];
  const invoices =
    person.role === 'worker'
      ? await invoicesRepo.listForWorker(person.id)
      : person.role === 'owner'
        ? await invoicesRepo.listAll()
        : await invoicesRepo.listForCustomer(person.id);
  return invoices.map((i) => toInvoiceView(i, person.role));
});
