import { describe, expect, it } from 'vitest';
import { apiErrorFrom } from '../../lib/api';
import {
  CONFIRMATION_POLL_MS,
  PAYMENT_REDIRECT_MS,
  confirmationOf,
  confirmationPollInterval,
  confirmationText,
  feeLine,
  paymentParams,
} from './payment-pages';

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

describe('feeLine', () => {
  it('states the configured split, whatever the rate', () => {
    expect(feeLine({ platformFeePercent: 10, workerSharePercent: 90 })).toBe(
      'Your professional receives 90% of the payment, with a 10% service fee.',
    );
    expect(feeLine({ platformFeePercent: 15, workerSharePercent: 85 })).toContain('85%');
  });

  it('says nothing until the configuration is known', () => {
    expect(feeLine(undefined)).toBeNull();
  });
});

describe('confirmation', () => {
  it('is confirmed once the invoice is paid, and stops asking', () => {
    expect(confirmationOf({ paymentStatus: 'paid' }, null)).toBe('confirmed');
    expect(confirmationPollInterval({ paymentStatus: 'paid' }, null)).toBe(false);
    expect(confirmationText('confirmed')).toBe('Payment confirmed');
  });

  it('keeps confirming every 2 s while the payment is pending or processing', () => {
    expect(confirmationOf({ paymentStatus: 'processing' }, null)).toBe('confirming');
    expect(confirmationPollInterval({ paymentStatus: 'pending' }, null)).toBe(CONFIRMATION_POLL_MS);
    expect(CONFIRMATION_POLL_MS).toBe(2000);
    expect(confirmationText('confirming')).toBe('Confirming your payment…');
  });

  it('leaves the line out when this browser may not read the invoice', () => {
    // Prepare
    const notFound = apiErrorFrom(404, 'Not Found', '{"error":"NotFound","message":"Invoice not found"}');
    const noCookie = apiErrorFrom(401, 'Unauthorized', '');

    // Act
    const outcomes = [confirmationOf(undefined, notFound), confirmationOf(undefined, noCookie)];

    // Assess
    expect(outcomes).toEqual(['unknown', 'unknown']);
    expect(confirmationText('unknown')).toBeNull();
    expect(confirmationPollInterval(undefined, notFound)).toBe(false);
  });

  it('keeps trying through a server or network failure', () => {
    expect(confirmationOf(undefined, apiErrorFrom(503, 'Service Unavailable', ''))).toBe('confirming');
    expect(confirmationOf(undefined, new TypeError('Failed to fetch'))).toBe('confirming');
  });

  it('says so when the card payment failed', () => {
    expect(confirmationOf({ paymentStatus: 'failed' }, null)).toBe('failed');
    expect(confirmationPollInterval({ paymentStatus: 'failed' }, null)).toBe(false);
  });
});

describe('PAYMENT_REDIRECT_MS', () => {
  it('is the spec\'s 8 s', () => {
    expect(PAYMENT_REDIRECT_MS).toBe(8000);
  });
});
