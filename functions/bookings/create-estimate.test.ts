import { describe, expect, it } from 'vitest';
import { cardFeeCents, estimateDefaults, estimateJob, REQUESTED_TIME_MESSAGE } from '../../shared/domain/estimate';
import { WORKER_COUNT_MESSAGE } from '../../shared/schemas/estimate';
import { DEFAULT_PLATFORM_FEE_PERCENT } from '../../shared/constants';
import { handler } from './create-estimate';
import { dispatchableWorker, north, testPlace } from '../testing/dispatch';
import { fromAddress, invoke, sampleEvent, withBody } from '../testing/events';

const sample = sampleEvent('create-estimate');
/** Any trade will do: each test prices at a random place of its own, where only its pros are near. */
const category = 'handyman';
const HOUR = 60 * 60 * 1000;
const rates = { feePercent: DEFAULT_PLATFORM_FEE_PERCENT, ...estimateDefaults };

const networkAddress = () => `2001:db8:e5:${Math.floor(Math.random() * 0xffff).toString(16)}::${Math.floor(Math.random() * 0xffff).toString(16)}`;
const estimate = (body: unknown) => invoke(handler, fromAddress(withBody(sample, body), networkAddress()));

/** Five pros at `place` (the sample the median is taken of), with these rates in cents. */
async function prosAt(place: ReturnType<typeof testPlace>, ratesCents: readonly number[]) {
  return Promise.all(ratesCents.map((hourlyRate, i) => dispatchableWorker(category, north(place, 0.1 * (i + 1)), { hourlyRate })));
}

describe('POST /api/estimates', () => {
  it('prices an as-soon-as-possible job at the median rate of the nearest free pros, rush fee included', async () => {
    // Prepare
    const place = testPlace();
    await prosAt(place, [3000, 9000, 4000, 5000, 4500]);

    // Act
    const res = await estimate({ category, size: 'medium', location: place });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      estimate: estimateJob({ category, size: 'medium', hourlyRateCents: 4500, asap: true }, rates),
      unavailable: null,
      feePercent: DEFAULT_PLATFORM_FEE_PERCENT,
      requestedTime: null,
    });
    expect(res.body.estimate.rushFee).toBe(estimateDefaults.rushFeeCents);
  });

  it('charges no rush fee for a time tomorrow and answers the time it priced', async () => {
    // Prepare
    const place = testPlace();
    await prosAt(place, [4000, 4000, 4000, 4000, 4000]);
    const tomorrow = new Date(Date.now() + 24 * HOUR).toISOString();

    // Act
    const res = await estimate({ category, size: 'small', location: place, requestedTime: tomorrow });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.requestedTime).toBe(tomorrow);
    expect(res.body.estimate).toEqual(estimateJob({ category, size: 'small', hourlyRateCents: 4000, asap: false }, rates));
  });

  it('prices a hire at the hired pro rate, wherever the pros nearby are', async () => {
    // Prepare
    const hired = await dispatchableWorker(category, testPlace(), { hourlyRate: 7700 });

    // Act
    const res = await estimate({ category, size: 'large', workerId: hired.id, requestedTime: null });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.estimate.hourlyRate).toBe(7700);
  });

  it('answers no figures and says why when no pro of the trade is free nearby, so the request can still be sent', async () => {
    // Prepare: a place of its own, where no pro works
    const place = testPlace();

    // Act
    const res = await estimate({ category, size: 'small', location: place });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.estimate).toBeNull();
    expect(res.body.unavailable).toContain('You can still send the request');
  });

  it('refuses a hire of a pro who is not available, saying to choose another', async () => {
    const suspended = await dispatchableWorker(category, testPlace(), { status: 'suspended' });

    const res = await estimate({ category, size: 'small', workerId: suspended.id });

    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).toContain('Choose another');
  });

  it('refuses a time in the past or beyond 14 days, saying what to choose', async () => {
    // Act
    const past = await estimate({ category, size: 'small', requestedTime: new Date(Date.now() - HOUR).toISOString() });
    const late = await estimate({ category, size: 'small', requestedTime: new Date(Date.now() + 15 * 24 * HOUR).toISOString() });

    // Assess
    for (const res of [past, late]) {
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(REQUESTED_TIME_MESSAGE);
    }
  });

  it('prices a crew of three as three pros\' hours and rush fees with one card fee', async () => {
    // Prepare
    const place = testPlace();
    await prosAt(place, [4000, 4000, 4000, 4000, 4000]);

    // Act
    const res = await estimate({ category, size: 'medium', location: place, workerCount: 3 });

    // Assess
    expect(res.status).toBe(200);
    const one = estimateJob({ category, size: 'medium', hourlyRateCents: 4000, asap: true }, rates);
    expect(res.body.estimate).toEqual(estimateJob({ category, size: 'medium', hourlyRateCents: 4000, asap: true, workerCount: 3 }, rates));
    expect(res.body.estimate.workerCount).toBe(3);
    expect(res.body.estimate.baseAmount).toBe(3 * one.baseAmount);
    expect(res.body.estimate.rushFee).toBe(3 * estimateDefaults.rushFeeCents);
    expect(res.body.estimate.transactionFee).toBe(cardFeeCents(3 * (one.baseAmount + one.rushFee), rates.cardFeePercent, rates.cardFeeFixedCents));
    expect(res.body.estimate.hours).toBe(one.hours);
  });

  it('prices a hire as one pro whatever count is sent', async () => {
    const hired = await dispatchableWorker(category, testPlace(), { hourlyRate: 5000 });

    const res = await estimate({ category, size: 'small', workerId: hired.id, workerCount: 4 });

    expect(res.status).toBe(200);
    expect(res.body.estimate.workerCount).toBe(1);
  });

  it('refuses a crew of more than five pros or of none, saying how many to choose', async () => {
    const many = await estimate({ category, size: 'small', workerCount: 6 });
    const none = await estimate({ category, size: 'small', workerCount: 0 });

    for (const res of [many, none]) {
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(WORKER_COUNT_MESSAGE);
    }
  });

  it('refuses a size it does not know and a trade that is not ours', async () => {
    const size = await estimate({ category, size: 'huge' });
    const trade = await estimate({ category: 'roofing', size: 'small' });

    expect(size.status).toBe(400);
    expect(JSON.stringify(size.body)).toContain('Choose a job size');
    expect(trade.status).toBe(400);
  });
});
