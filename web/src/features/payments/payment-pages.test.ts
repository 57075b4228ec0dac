import { describe, expect, it } from 'vitest';
import { NetworkError, apiErrorFrom } from '../../lib/api';
import { queryKeyUrl } from '../../lib/endpoint';
import { queryKeys } from '../../lib/query-keys';
import {
  CONFIRMATION_ATTEMPTS,
  CONFIRMATION_POLL_MS,
  PAYMENT_REDIRECT_MS,
  RECEIPT_NOTE,
  cancelledDestination,
  confirmationPollInterval,
  paidAtText,
  paymentOutcome,
  paymentParams,
  receiptLines,
  receiptNote,
  unconfirmedLink,
} from './payment-pages';

const usd = { currency: 'USD', locale: 'en-US' };

describe('paymentParams', () => {
  it('reads the checkout session and the job from the return link', () => {
    // Prepare
    const search = new URLSearchParams('session_id=cs_test_a1B2c3&job=Xy9_-abcdEFGHijklMNOPqr');

    // Act
    const params = paymentParams(search);

    // Assess
    expect(params).toEqual({ sessionId: 'cs_test_a1B2c3', jobId: 'Xy9_-abcdEFGHijklMNOPqr' });
  });

  it('treats missing, blank or odd-looking values as absent', () => {
    expect(paymentParams(new URLSearchParams(''))).toEqual({ sessionId: null, jobId: null });
    expect(paymentParams(new URLSearchParams('session_id=%20&job='))).toEqual({ sessionId: null, jobId: null });
    expect(paymentParams(new URLSearchParams('session_id=<script>&job=../admin'))).toEqual({ sessionId: null, jobId: null });
    expect(paymentParams(new URLSearchParams('session_id={CHECKOUT_SESSION_ID}')).sessionId).toBeNull();
  });

  it('trims surrounding spaces from a pasted link', () => {
    expect(paymentParams(new URLSearchParams('job=%20abc123%20')).jobId).toBe('abc123');
  });
});

describe('the payment confirmation key', () => {
  it('asks about the job, naming the checkout session when there is one', () => {
    expect(queryKeyUrl(queryKeys.paymentConfirmation('job_1', 'cs_test_1'))).toBe('/api/requests/job_1/payment?session_id=cs_test_1');
    expect(queryKeyUrl(queryKeys.paymentConfirmation('job_1', null))).toBe('/api/requests/job_1/payment');
  });
});

describe('paymentOutcome', () => {
  it('is paid only on the server\'s word, and stops asking', () => {
    // Prepare
    const state = { jobId: 'job_1', data: { paid: true }, error: null, attempts: 1 };

    // Act
    const outcome = paymentOutcome(state);

    // Assess
    expect(outcome).toBe('paid');
    expect(confirmationPollInterval(state)).toBe(false);
  });

  it('keeps asking every 2 s while the invoice is not paid yet, for about 20 s', () => {
    // Prepare
    const early = { jobId: 'job_1', data: { paid: false }, error: null, attempts: 3 };
    const late = { ...early, attempts: CONFIRMATION_ATTEMPTS };

    // Act
    const outcomes = [paymentOutcome({ ...early, data: undefined, attempts: 0 }), paymentOutcome(early), paymentOutcome(late)];

    // Assess
    expect(outcomes).toEqual(['confirming', 'confirming', 'unconfirmed']);
    expect(confirmationPollInterval(early)).toBe(CONFIRMATION_POLL_MS);
    expect(confirmationPollInterval(late)).toBe(false);
    expect(CONFIRMATION_POLL_MS * CONFIRMATION_ATTEMPTS).toBe(20_000);
  });

  it('keeps asking through a server or network failure', () => {
    expect(paymentOutcome({ jobId: 'job_1', data: undefined, error: apiErrorFrom(503, 'Service Unavailable', ''), attempts: 2 })).toBe('confirming');
    expect(paymentOutcome({ jobId: 'job_1', data: undefined, error: new NetworkError(), attempts: 2 })).toBe('confirming');
  });

  it('cannot confirm an unknown job, nor a link without one', () => {
    // Prepare
    const notFound = apiErrorFrom(404, 'Not Found', '{"error":"NotFound","message":"Request not found"}');

    // Act
    const outcomes = [
      paymentOutcome({ jobId: 'nope', data: undefined, error: notFound, attempts: 1 }),
      paymentOutcome({ jobId: null, data: undefined, error: null, attempts: 0 }),
    ];

    // Assess
    expect(outcomes).toEqual(['unconfirmed', 'unconfirmed']);
    expect(confirmationPollInterval({ jobId: 'nope', data: undefined, error: notFound, attempts: 1 })).toBe(false);
  });
});

describe('unconfirmedLink', () => {
  it('sends the customer back to the invoice of the job, else home', () => {
    expect(unconfirmedLink('job_1')).toEqual({ to: '/track#id=job_1', label: 'Back to your invoice' });
    expect(unconfirmedLink(null)).toEqual({ to: '/', label: 'Back to Home' });
  });
});

describe('receiptLines', () => {
  it('lists the total, the service fee with its rate and the pro\'s share', () => {
    // Prepare
    const confirmation = { totalAmount: 15750, platformFee: 1575, workerShare: 14175, feePercent: 10, workerName: 'Dana Whitfield' };

    // Act
    const lines = receiptLines(confirmation, usd);

    // Assess
    expect(lines).toEqual([
      { label: 'Total paid', value: '$157.50' },
      { label: 'Service fee (10%)', value: '$15.75' },
      { label: 'Dana Whitfield receives', value: '$141.75' },
    ]);
  });

  it('leaves out what the server did not give', () => {
    expect(receiptLines({ totalAmount: null, platformFee: null, workerShare: null, feePercent: null, workerName: null }, usd)).toEqual([]);
    expect(receiptLines({ totalAmount: null, platformFee: 500, workerShare: 4500, feePercent: null, workerName: ' ' }, usd)).toEqual([
      { label: 'Service fee', value: '$5.00' },
      { label: 'Your pro receives', value: '$45.00' },
    ]);
  });
});

describe('paidAtText', () => {
  it('writes the payment time in the configured locale, and nothing for an unknown one', () => {
    expect(paidAtText('2025-03-04T15:07:00Z', 'en-US')).toMatch(/Mar 4, 2025/);
    expect(paidAtText(null, 'en-US')).toBeNull();
    expect(paidAtText('not a date', 'en-US')).toBeNull();
  });
});

describe('RECEIPT_NOTE', () => {
  it('does not claim we emailed a receipt', () => {
    expect(RECEIPT_NOTE).toBe('This page is your receipt; Stripe may also email one if you gave it your address.');
    expect(RECEIPT_NOTE).not.toMatch(/has been emailed/);
  });
});

describe('receiptNote', () => {
  it('says a receipt was emailed only when the server says one was mailed', () => {
    expect(receiptNote({ receiptEmailed: true })).toBe('We emailed your receipt to the address on your request; this page is your receipt too.');
    expect(receiptNote({ receiptEmailed: false })).toBe(RECEIPT_NOTE);
    expect(receiptNote({ receiptEmailed: false })).not.toMatch(/emailed your receipt/);
  });
});

describe('cancelledDestination', () => {
  it('sends a customer back to the request and its open invoice', () => {
    // Act
    const destination = cancelledDestination('job_1', false);

    // Assess
    expect(destination).toEqual({ to: '/track#id=job_1', where: 'your invoice', label: 'Back to your invoice' });
  });

  it('sends a signed-in worker back to their dashboard', () => {
    expect(cancelledDestination('job_1', true).to).toBe('/worker-dashboard');
    expect(cancelledDestination(null, true).to).toBe('/worker-dashboard');
  });

  it('sends a customer without a job in the link home', () => {
    expect(cancelledDestination(null, false)).toEqual({ to: '/', where: 'the home page', label: 'Back to Home' });
  });

  it('moves on after 8 s', () => {
    expect(PAYMENT_REDIRECT_MS).toBe(8000);
  });
});
