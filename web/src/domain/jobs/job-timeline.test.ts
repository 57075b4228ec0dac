import { describe, expect, it } from 'vitest';
import type { InvoiceSummary } from '../../../../shared/schemas/invoice';
import type { TrackedRequestView } from '../../../../shared/schemas/job';
import { BOOKING_NOT_FOUND } from '../../../../shared/schemas/tracking';
import { ApiError, apiErrorFrom } from '../../lib/api';
import { formatDateTime } from '../../lib/date-time';
import {
  failureText,
  isBookingNumber,
  isTrackingFinal,
  lookupFailureOf,
  offersText,
  proRatingText,
  receiptOf,
  reofferNote,
  trackingActionOf,
  trackingLink,
  trackingNowOf,
  trackingStepsOf,
  type TrackingStepKey,
} from './job-timeline';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const worker = { id: 'w1', name: 'Riley Chen', phone: '+1 415 555 0100', photoUrl: null, rating: 4.8, reviewCount: 12 };
const noTimes = { acceptedAt: null, enRouteAt: null, arrivedAt: null, startedAt: null, endedAt: null, verifiedAt: null, paidAt: null, cancelledAt: null };

function searching(overrides: Partial<TrackedRequestView> = {}): TrackedRequestView {
  return {
    id: 'job_0000000000000ABCD1234',
    kind: 'booking',
    number: 'ABCD1234',
    category: 'plumbing',
    name: 'Dana Whitfield',
    phoneNumber: '(415) 555-0142',
    service: 'Plumbing',
    location: '742 Evergreen Terrace, Springfield',
    town: 'Springfield',
    description: 'Kitchen sink drains slowly.',
    status: 'Pending',
    jobState: 'offered',
    dispatch: 'searching',
    reassigned: false,
    worker: null,
    etaMinutes: null,
    arriveBy: null,
    clientLatitude: 0,
    clientLongitude: 0,
    gpsEnabled: false,
    customerType: 'individual',
    workerCount: 1,
    crew: null,
    crewLeadId: null,
    offersOutstanding: 3,
    canCancel: true,
    canRetry: false,
    reofferUntil: null,
    times: noTimes,
    arrivalClaim: null,
    rating: null,
    verification: { pending: false, workHours: null, status: null, notes: null, at: null, message: '' },
    invoice: null,
    cancelMessage: null,
    requestedTime: null,
    offersOpenAt: null,
    estimate: null,
    createdAt: '2026-03-10T11:00:00Z',
    viewer: 'customer',
    ...overrides,
  };
}

const invoice: InvoiceSummary = {
  id: 'inv_0000000000000000INV1',
  invoiceNumber: '0000INV1',
  laborHours: 2.5,
  hourlyRate: 4500,
  materialsCost: 4250,
  rushFee: 0,
  transactionFee: 0,
  estimatedTotal: null,
  totalAmount: 15500,
  platformFee: 1550,
  workerShare: 13950,
  feePercent: 10,
  paymentStatus: 'pending',
  workVerified: true,
  paidAt: null,
};

const waitingForOffers = () =>
  searching({ jobState: 'booked', offersOutstanding: 0, requestedTime: '2026-03-14T16:00:00Z', offersOpenAt: '2026-03-13T16:00:00Z' });
const noWorker = () => searching({ dispatch: 'no_worker_available', offersOutstanding: 0, canRetry: true, reofferUntil: '2026-03-10T12:30:00Z' });
const onTheWay = () =>
  searching({ status: 'In Progress', jobState: 'en_route', dispatch: 'assigned', worker, canCancel: false, offersOutstanding: 0, times: { ...noTimes, acceptedAt: '2026-03-10T11:05:00Z', enRouteAt: '2026-03-10T11:10:00Z' } });
const completed = () =>
  searching({
    status: 'Completed',
    jobState: 'completed',
    dispatch: 'done',
    worker,
    canCancel: false,
    offersOutstanding: 0,
    verification: { pending: true, workHours: 2.5, status: null, notes: null, at: null, message: 'Please verify.' },
  });
const invoiced = (paymentStatus: InvoiceSummary['paymentStatus'] = 'pending') =>
  searching({
    ...completed(),
    jobState: 'verified',
    verification: { pending: false, workHours: 2.5, status: 'approved', notes: null, at: '2026-03-10T11:50:00Z', message: '' },
    invoice: { ...invoice, paymentStatus },
  });
const paid = (rating: number | null = null) =>
  searching({ ...invoiced('paid'), jobState: 'paid', rating, invoice: { ...invoice, paymentStatus: 'paid', paidAt: '2026-03-10T12:10:00Z' } });

function stepStates(view: TrackedRequestView): Partial<Record<TrackingStepKey, string>> {
  return Object.fromEntries(trackingStepsOf(view).map((step) => [step.key, step.state]));
}

describe('the tracking timeline', () => {
  it('puts every kind of job on the same eleven steps', () => {
    // Act
    const labels = ['booking', 'request', 'hire'].map((kind) => trackingStepsOf(searching({ kind: kind as 'booking' })).map((step) => step.label));

    // Assess
    expect(labels[0]).toEqual([
      'Request received',
      'Finding a pro',
      'Pro assigned',
      'On the way',
      'Arrived',
      'Working',
      'Work completed',
      'Verify the work',
      'Invoice',
      'Payment',
      'Rating',
    ]);
    expect(labels[1]).toEqual(labels[0]);
    expect(labels[2]).toEqual(labels[0]);
  });

  it('is finding a pro while offers are out, with the request received', () => {
    // Act
    const steps = trackingStepsOf(searching());

    // Assess
    expect(steps.filter((step) => step.state === 'current').map((step) => step.key)).toEqual(['finding']);
    expect(steps[0]).toMatchObject({ key: 'sent', state: 'done', at: '2026-03-10T11:00:00Z' });
    expect(steps.some((step) => step.problem)).toBe(false);
  });

  it('has not started finding a pro while a scheduled job waits for its offers to open', () => {
    // Act
    const steps = trackingStepsOf(waitingForOffers());

    // Assess
    expect(steps.filter((step) => step.state === 'current').map((step) => step.key)).toEqual(['sent']);
    expect(steps.find((step) => step.key === 'finding')).toMatchObject({ state: 'upcoming', at: null });
  });

  it('marks the search step as the problem once nobody accepted', () => {
    // Act
    const finding = trackingStepsOf(noWorker()).find((step) => step.key === 'finding');

    // Assess
    expect(finding).toMatchObject({ state: 'current', problem: true });
  });

  it('is on the way once the pro set off, with the times of the steps done', () => {
    // Act
    const steps = trackingStepsOf(onTheWay());

    // Assess
    expect(stepStates(onTheWay())).toMatchObject({ finding: 'done', assigned: 'done', on_the_way: 'current', arrived: 'upcoming' });
    expect(steps.find((step) => step.key === 'assigned')?.at).toBe('2026-03-10T11:05:00Z');
    expect(steps.find((step) => step.key === 'arrived')?.at).toBeNull();
  });

  it('asks to verify the work once completed, then to pay the invoice', () => {
    expect(stepStates(completed())).toMatchObject({ completed: 'done', verified: 'current' });
    expect(stepStates(invoiced())).toMatchObject({ verified: 'done', invoiced: 'done', paid: 'current' });
  });

  it('counts an invoice that arrives already verified as the verification', () => {
    // Prepare: the work was approved when the invoice was made, with no separate verification record.
    const view = searching({ ...invoiced(), verification: { pending: false, workHours: null, status: null, notes: null, at: null, message: '' } });

    // Act
    const states = stepStates(view);

    // Assess
    expect(states.verified).toBe('done');
  });

  it('waits for the rating once paid, and rests on the last step when everything is done', () => {
    expect(stepStates(paid())).toMatchObject({ paid: 'done', rated: 'current' });
    expect(trackingStepsOf(paid(5)).every((step) => step.state === 'done' || step.key === 'rated')).toBe(true);
    expect(stepStates(paid(5)).rated).toBe('current');
  });

  it('leaves a cancelled job outside the timeline: no step is current', () => {
    // Act
    const steps = trackingStepsOf(searching({ jobState: 'cancelled', canCancel: false }));

    // Assess
    expect(steps.some((step) => step.state === 'current')).toBe(false);
  });
});

describe('the one action on the tracking page', () => {
  it('follows the job: cancel, try again, verify, pay, rate, then nothing', () => {
    // Act
    const actions = [searching(), noWorker(), onTheWay(), completed(), invoiced(), invoiced('processing'), paid(), paid(4)].map(trackingActionOf);

    // Assess
    expect(actions).toEqual(['cancel', 'retry', 'none', 'verify', 'pay', 'pay', 'rate', 'none']);
  });

  it('offers nothing to someone holding the link who is not the customer', () => {
    expect([searching(), noWorker(), completed(), invoiced(), paid()].map((view) => trackingActionOf({ ...view, viewer: 'link' }))).toEqual([
      'none',
      'none',
      'none',
      'none',
      'none',
    ]);
  });

  it('offers nothing on a cancelled job', () => {
    expect(trackingActionOf(searching({ jobState: 'cancelled', canCancel: true }))).toBe('none');
  });

  it('asks the customer "Has your pro arrived?" while the pro\'s unproven claim waits, and only them', () => {
    // Prepare
    const claimed = searching({ ...onTheWay(), arrivalClaim: { claimedAt: '2026-03-10T11:30:00Z' } });

    // Act
    const actions = [trackingActionOf(claimed), trackingActionOf({ ...claimed, viewer: 'link' }), trackingActionOf({ ...claimed, jobState: 'arrived' })];

    // Assess
    expect(actions).toEqual(['confirm-arrival', 'none', 'none']);
    expect(trackingNowOf(claimed)).toEqual({ tone: 'warning', headline: 'Riley Chen says they have arrived', lines: [] });
  });
});

describe('what the tracking page says now', () => {
  it('counts the pros being asked', () => {
    expect(trackingNowOf(searching()).headline).toBe('Asking 3 pros nearby');
    expect(offersText(1)).toBe('Asking 1 pro nearby');
    expect(offersText(0)).toBe('Looking for a pro nearby');
  });

  it('says when a scheduled job is booked for, and that finding a pro starts a day before, until its offers open', () => {
    // Act
    const waiting = trackingNowOf(waitingForOffers());
    const opened = trackingNowOf(searching({ requestedTime: '2026-03-11T09:00:00Z', offersOpenAt: null }));

    // Assess
    expect(waiting).toEqual({ tone: 'info', headline: `Scheduled for ${formatDateTime('2026-03-14T16:00:00Z')}`, lines: ['We start finding you a pro about a day before.'] });
    expect(opened.headline).toBe('Asking 3 pros nearby');
  });

  it('says no worker is available, and how long a pro coming on call gets it automatically', () => {
    // Prepare
    const view = noWorker();

    // Act
    const now = trackingNowOf(view);
    const reoffer = reofferNote(view.reofferUntil, NOW);

    // Assess
    expect(now).toEqual({ tone: 'warning', headline: 'No worker available', lines: ['No pro nearby accepted your request in time.'] });
    expect(reoffer).toBe('For the next 30 minutes, a pro who comes on call nearby gets it automatically.');
  });

  it('names the pro through the visit, and asks for the verification with the hours recorded', () => {
    expect(trackingNowOf(onTheWay()).headline).toBe('Riley Chen is on the way');
    expect(trackingNowOf(completed())).toMatchObject({ headline: 'Please verify the completed work', lines: ['Riley Chen recorded 2.5 hours of work.'] });
  });

  it('tells the customer their requested changes are being made', () => {
    // Prepare
    const reopened = searching({
      ...onTheWay(),
      jobState: 'in_progress',
      verification: { pending: false, workHours: 2, status: 'rejected', notes: 'Grout is missing', at: null, message: '' },
    });

    // Act
    const now = trackingNowOf(reopened);

    // Assess
    expect(now.lines).toEqual(['You asked for changes: “Grout is missing”. Your pro is back on the job.']);
  });

  it('shows the invoice, then the thanks, then the rating given', () => {
    expect(trackingNowOf(invoiced())).toMatchObject({ headline: 'Your invoice is ready', lines: ['Invoice #0000INV1 · $155.00'] });
    expect(trackingNowOf(paid()).headline).toBe('Paid. Thank you!');
    expect(trackingNowOf(paid(5)).lines[0]).toMatch(/^You rated this 5\/5/);
  });
});

describe('reofferNote', () => {
  it('rounds the minutes left up, and says nothing once the window has closed', () => {
    expect(reofferNote('2026-03-10T12:00:30Z', NOW)).toBe('For the next 1 minute, a pro who comes on call nearby gets it automatically.');
    expect(reofferNote('2026-03-10T12:00:00Z', NOW)).toBeNull();
    expect(reofferNote(null, NOW)).toBeNull();
    expect(reofferNote('not a date', NOW)).toBeNull();
  });
});

describe('isTrackingFinal', () => {
  it('keeps following a job until it is paid and rated, or cancelled', () => {
    expect([searching(), noWorker(), onTheWay(), invoiced(), paid()].map(isTrackingFinal)).toEqual([false, false, false, false, false]);
    expect(isTrackingFinal(paid(5))).toBe(true);
    expect(isTrackingFinal(searching({ jobState: 'cancelled' }))).toBe(true);
    expect(isTrackingFinal(undefined)).toBe(false);
  });
});

describe('proRatingText', () => {
  it('gives the average and the count, or "New" before any review', () => {
    expect(proRatingText({ rating: 4.8, reviewCount: 12 })).toBe('4.8 (12 reviews)');
    expect(proRatingText({ rating: 5, reviewCount: 1 })).toBe('5.0 (1 review)');
    expect(proRatingText({ rating: null, reviewCount: 0 })).toBe('New');
  });
});

describe('receiptOf', () => {
  it('splits the total into labour and materials, and shows the fee and the share', () => {
    // Act
    const receipt = receiptOf({ ...invoice, paymentStatus: 'paid', paidAt: '2026-03-10T12:10:00Z' });

    // Assess
    expect(receipt.lines).toEqual([
      { label: 'Labour (2.5 hours at $45.00/hr)', cents: 11250 },
      { label: 'Materials', cents: 4250 },
      { label: 'Total', cents: 15500, total: true },
      { label: 'Platform fee (10%)', cents: 1550 },
      { label: "Your pro's share", cents: 13950 },
    ]);
    expect(receipt.paidAt).toBe('2026-03-10T12:10:00Z');
  });

  it('shows the as-soon-as-possible fee and the card processing apart from the labour when charged', () => {
    // Prepare
    const charged = { ...invoice, rushFee: 2500, transactionFee: 570, totalAmount: 15500 + 2500 + 570 };

    // Act
    const receipt = receiptOf(charged);

    // Assess
    expect(receipt.lines.slice(0, 5)).toEqual([
      { label: 'Labour (2.5 hours at $45.00/hr)', cents: 11250 },
      { label: 'As-soon-as-possible fee', cents: 2500 },
      { label: 'Materials', cents: 4250 },
      { label: 'Card processing', cents: 570 },
      { label: 'Total', cents: 18570, total: true },
    ]);
  });
});

describe('finding a booking', () => {
  it('makes the link to keep from the page origin and the id', () => {
    expect(trackingLink('https://fixly.example', 'Ab3_x')).toBe('https://fixly.example/track#id=Ab3_x');
  });

  it('recognises a booking number as shown on screen', () => {
    expect(isBookingNumber(' abcd1234 ')).toBe(true);
    expect(isBookingNumber('ABCD123')).toBe(false);
    expect(isBookingNumber('AAAAAAAAAAAAAAAAAAAAAA')).toBe(false);
  });

  it('says a wrong pair was not found, and passes on what to do when throttled', () => {
    // Prepare
    const notFound = apiErrorFrom(404, 'Not Found', JSON.stringify({ error: 'NotFound', message: BOOKING_NOT_FOUND }));
    const throttled = apiErrorFrom(429, 'Too Many Requests', JSON.stringify({ error: 'TooManyRequests', message: 'Too many tries. Try again in 15 minutes.' }));

    // Act
    const failures = [notFound, throttled].map(lookupFailureOf);

    // Assess
    expect(failures[0]).toMatchObject({ title: 'Booking Not Found', message: 'The booking ID you entered could not be found.' });
    expect(failures[1]).toMatchObject({ message: 'Too many tries. Try again in 15 minutes.' });
  });

  it('never shows the browser its own network error', () => {
    expect(lookupFailureOf(new TypeError('Failed to fetch')).message).toBe('Please try again later.');
    expect(failureText(new ApiError(500, '500: Internal Server Error', null), 'Please try again')).toBe('Please try again');
  });
});
