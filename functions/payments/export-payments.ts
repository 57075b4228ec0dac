import { routeByName } from '../../shared/routes';
import { rangeOf } from '../owner/analytics';
import { amount, toCsv } from '../common/csv';
import { exportsRepo } from '../owner/data/exports';
import { fileReply, http } from '../common/http';

/** The payments made in a range of days (by when they were paid), as a CSV file (at most 5,000 rows). */
export const handler = http(routeByName('export-payments'), async ({ query }) => {
  const range = rangeOf(query, new Date().toISOString().slice(0, 10));
  const invoices = await exportsRepo.payments(range.from, range.to);
  const csv = toCsv(
    ['Invoice id', 'Job id', 'Paid at', 'Customer', 'Pro', 'Service', 'Total', 'Card fee', 'Platform fee', 'Pro payout', 'Payout', 'Fee percent', 'Stripe payment'],
    invoices.map((invoice) => [
      invoice.id,
      invoice.jobId,
      invoice.paidAt,
      invoice.customerName,
      invoice.workerName,
      invoice.service,
      amount(invoice.totalAmount),
      // What the customer paid the card processor through us: Total = card fee + platform fee + pro payout.
      amount(invoice.transactionFee ?? 0),
      amount(invoice.platformFee),
      amount(invoice.workerShare),
      invoice.payoutStatus,
      invoice.feePercent,
      invoice.stripePaymentIntentId,
    ]),
  );
  return fileReply(csv, { contentType: 'text/csv; charset=utf-8', filename: `payments-${range.from}-to-${range.to}.csv` });
});
