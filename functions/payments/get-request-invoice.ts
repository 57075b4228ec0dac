import { routeByName } from '../../shared/routes';
import { invoicesRepo } from './data/invoices';
import { jobsRepo } from '../jobs/data/jobs';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { toInvoiceView } from './invoice-views';

/** The invoice of one of the customer's requests; 404 until the worker creates it (or when not theirs). */
export const handler = http(routeByName('get-request-invoice'), async ({ params, caller }) => {
  const jobId = params.id;
  const job = await jobsRepo.findCustomersJob(jobId, caller.id, false);
  if (!job) throw new NotFoundError('Request not found');
  const invoice = job.invoiceId ? await invoicesRepo.findById(job.invoiceId) : undefined;
  if (!invoice) throw new NotFoundError('Invoice not found');
  return toInvoiceView(invoice, 'customer');
});
