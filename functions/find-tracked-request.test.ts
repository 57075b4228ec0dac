import { afterEach, describe, expect, it } from 'vitest';
import { requestNumber } from '../shared/domain/requests';
import { handler } from './find-tracked-request';
import { limits, throttleClock } from './lib/auth/throttle';
import { testCategory, testJob, testPlace } from './lib/testing/dispatch';
import { fromAddress, invoke, sampleEvent, withBody } from './lib/testing/events';

const sample = sampleEvent('find-tracked-request');

/** Each test from an address of its own: the throttle counts per address. */
const from = (address: string, body: unknown) => fromAddress(withBody(sample, body), address);
const anAddress = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

afterEach(() => {
  throttleClock.now = () => Date.now();
});

describe('POST /api/track/lookup', () => {
  it('finds the job by the number on screen and the phone it was made with, however either is written', async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace(), { customerPhone: '(415) 555-0142' });

    // Act
    const res = await invoke(handler, from(anAddress(), { number: requestNumber(job.id).toLowerCase(), phone: '+1 415.555.0142' }));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: job.id });
  });

  it('answers a wrong phone exactly as an unknown number', async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace(), { customerPhone: '(415) 555-0142' });

    // Act
    const [wrongPhone, unknown] = await Promise.all([
      invoke(handler, from(anAddress(), { number: requestNumber(job.id), phone: '(415) 555-9999' })),
      invoke(handler, from(anAddress(), { number: 'ZZZZZZZZ', phone: '(415) 555-0142' })),
    ]);

    // Assess
    expect(wrongPhone.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(wrongPhone.body).toEqual(unknown.body);
    expect(wrongPhone.body.message).toBe('The booking ID you entered could not be found.');
  });

  it('slows down guessing: past the limit even the right pair answers 429 with Retry-After', async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace(), { customerPhone: '(415) 555-0142' });
    const address = anAddress();
    for (let i = 0; i < limits.accountAddress; i++) {
      expect((await invoke(handler, from(address, { number: requestNumber(job.id), phone: `(415) 555-00${10 + i}` }))).status).toBe(404);
    }

    // Act
    const res = await invoke(handler, from(address, { number: requestNumber(job.id), phone: '(415) 555-0142' }));

    // Assess
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'] ?? res.headers['Retry-After'])).toBeGreaterThan(0);
    expect(res.body.message).toMatch(/Try again in \d+ minutes?/);
  });

  it('refuses a number that is not 8 characters with a message, before counting anything', async () => {
    // Act
    const res = await invoke(handler, from(anAddress(), { number: 'abc', phone: '(415) 555-0142' }));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields.number).toMatch(/8-character/);
  });
});
