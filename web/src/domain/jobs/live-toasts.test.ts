import { describe, expect, it } from 'vitest';
import type { ServerEvents } from '../../../../shared/realtime';
import { followsLive, LIVE_REQUEST_EVENTS, LIVE_TOAST_MS, liveRequestId, liveToastFor, touchesInvoices } from './live-toasts';

const label = 'Request 1A2B3C4D';
const at = '2026-03-10T12:00:00Z';
const worker = { id: 'w1', name: 'Ana Lima', phone: '555-0100', photoUrl: null };

describe('customer live toasts', () => {
  it('shows each named event for its own time', () => {
    // Act
    const shown = [
      liveToastFor('invoice_created', { requestId: 'r', workerId: 'w1', invoice: { id: 'i', totalAmount: 15750, laborHours: 2 } }, label),
      liveToastFor('worker_assigned', { requestId: 'r', worker }, label),
      liveToastFor('no_worker_available', { requestId: 'r', message: 'Nobody is free.' }, label),
      liveToastFor('job_reassigned', { requestId: 'r', message: 'Finding another.' }, label),
      liveToastFor('work_completion_verification', { requestId: 'r', workerId: 'w1', workHours: 2, message: 'Please verify.' }, label),
    ].map((toast) => [toast?.title, toast?.duration]);

    // Assess
    expect(shown).toEqual([
      ['Invoice ready', 15_000],
      ['Worker assigned', 10_000],
      ['No worker available', 8_000],
      ['Job reassigned', 10_000],
      ['Verification requested', 15_000],
    ]);
    expect(LIVE_TOAST_MS.noWorker).toBe(8_000);
  });

  it('says who, how much and which request', () => {
    // Act
    const assigned = liveToastFor('worker_assigned', { requestId: 'r', worker }, label);
    const invoice = liveToastFor('invoice_created', { requestId: 'r', workerId: 'w1', invoice: { id: 'i', totalAmount: 15750, laborHours: 2 } }, label);
    const noWorker = liveToastFor('no_worker_available', { requestId: 'r', message: '' }, label);

    // Assess
    expect(assigned?.description).toBe('Ana Lima accepted your request. Request 1A2B3C4D.');
    expect(invoice?.description).toBe('Your invoice of $157.50 is ready: verify the work and pay. Request 1A2B3C4D.');
    expect(noWorker?.description).toBe('No worker is available right now. Please try again later. Request 1A2B3C4D.');
  });

  it('stays quiet for events another toast already covers, which only refresh the list', () => {
    // Act: work_status is the live tracking's to toast.
    const quiet = [
      liveToastFor('work_status', { requestId: 'r', status: 'arrived', eta: null, timestamp: at }, label),
      liveToastFor('service_accepted', { requestId: 'r' }, label),
      liveToastFor('job:accepted', { jobId: 'r', workerProfile: worker }, label),
      liveToastFor('invoice_verification_request', { requestId: 'r', invoiceId: 'i', invoiceAmount: 100 }, label),
      liveToastFor('payment_completed', { requestId: 'r', invoiceId: 'i', receiptSent: { email: true, sms: false } }, label),
    ];

    // Assess
    expect(quiet).toEqual([null, null, null, null, null]);
  });

  it('says when the search starts again and when a request is cancelled, and refreshes the list for both', () => {
    // Act
    const searching = liveToastFor('job_searching', { requestId: 'r', message: 'A pro came on call nearby: we are asking them.' }, label);
    const cancelled = liveToastFor('job_cancelled', { requestId: 'r', message: '' }, label);

    // Assess
    expect(searching).toEqual({
      title: 'Searching again',
      description: 'A pro came on call nearby: we are asking them. Request 1A2B3C4D.',
      duration: LIVE_TOAST_MS.searching,
    });
    expect(cancelled?.description).toBe('No pro will be sent. Request 1A2B3C4D.');
    expect(LIVE_REQUEST_EVENTS).toEqual(expect.arrayContaining(['job_searching', 'job_cancelled']));
    expect(liveRequestId('job_cancelled', { requestId: 'r9', message: '' })).toBe('r9');
  });

  it('finds the request an event is about, whichever field names it', () => {
    // Act
    const fromJob = liveRequestId('job:accepted', { jobId: 'j1', workerProfile: worker } as ServerEvents['job:accepted']);
    const fromRequest = liveRequestId('service_accepted', { requestId: 'r1' });
    const missing = liveRequestId('service_accepted', {} as ServerEvents['service_accepted']);

    // Assess
    expect([fromJob, fromRequest, missing]).toEqual(['j1', 'r1', null]);
  });

  it('refreshes invoices for invoice and payment events only', () => {
    // Act + Assess
    expect(touchesInvoices('invoice_created')).toBe(true);
    expect(touchesInvoices('payment_completed')).toBe(true);
    expect(touchesInvoices('work_status')).toBe(false);
  });

  it('follows a request live until it is paid or cancelled', () => {
    // Act
    const states = [
      followsLive({ jobState: 'booked', invoice: null }),
      followsLive({ jobState: 'completed', invoice: null }),
      followsLive({ jobState: 'verified', invoice: { paymentStatus: 'pending' } }),
      followsLive({ jobState: 'paid', invoice: { paymentStatus: 'paid' } }),
      followsLive({ jobState: 'cancelled', invoice: null }),
    ];

    // Assess
    expect(states).toEqual([true, true, true, false, false]);
  });
});
