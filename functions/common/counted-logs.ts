/**
 * Log messages the deployed stack counts as CloudWatch metrics: infra/monitoring.ts puts a metric
 * filter on each exact phrase in the functions' log group, and the dashboard graphs the counts.
 * Renaming one here renames the phrase the filter looks for, so the two cannot drift apart.
 */
export const countedLogs = {
  /** Stripe's money arrived for an invoice (once per invoice: the conditional write that marks it paid). */
  paymentSucceeded: 'Invoice paid',
  /** An asynchronous payment (a bank debit) Stripe reports failed; the customer may pay again. */
  paymentFailed: 'Invoice payment failed',
  /** A call to the webhook whose Stripe-Signature did not verify. */
  webhookSignatureRefused: 'Webhook signature refused',
  /** A paid Checkout session naming no invoice of ours. */
  paymentForUnknownInvoice: 'Payment for an unknown invoice',
} as const;

export type CountedLog = keyof typeof countedLogs;

/**
 * Log messages an alarm counts (infra/monitoring.ts), apart from the payment lines above because
 * the dashboard graphs those as payments.
 */
export const alarmedLogs = {
  /**
   * An HTTP call answered 409: the state it meant to change had moved, most often because another
   * write got there first (a conditional write or a transaction refused). One line per answer, with
   * the route, so the alarm's share of conflicts can be traced to where they happen.
   */
  conflictAnswered: 'Answered conflict',
} as const;
