import { afterEach, describe, expect, it } from 'vitest';
import { requestNumber } from '../../shared/domain/requests';
import { handler } from './find-tracked-request';
import { limits, throttleClock } from '../common/auth/throttle';
import { testCategory, testJob, testPlace } from '../testing/dispatch';
import { fromAddress, invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { newId } from '../common/ids';
import { asCustomer } from '../testing/money';

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

  /** Strangers fill every shared counter of the number: the per-number one from many addresses. */
  async function lockOutByStrangers(number: string): Promise<void> {
    for (let i = 0; i < limits.account; i++) {
      const address = `10.77.${i % 11}.${Math.floor(i / 11)}`;
      await invoke(handler, from(address, { number, phone: `(415) 555-${String(1000 + i)}` }));
    }
  }

  it("still finds the job for the customer's own browser after strangers used up the number's attempts", async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace(), { customerPhone: '(415) 555-0142' });
    const number = requestNumber(job.id);
    await lockOutByStrangers(number);
    const stranger = await invoke(handler, from(anAddress(), { number, phone: '(415) 555-0142' }));

    // Act
    const res = await invoke(handler, await asCustomer(from(anAddress(), { number, phone: '(415) 555-0142' }), job.customerId));

    // Assess
    expect(stranger.status).toBe(429);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: job.id });
  });

  it('still finds the job for a browser that found it before, by the device cookie that lookup left', async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace(), { customerPhone: '(415) 555-0142' });
    const number = requestNumber(job.id);
    const first = await invoke(handler, from(anAddress(), { number, phone: '(415) 555-0142' }));
    const deviceCookie = (first.cookies ?? []).find((c) => c.startsWith(`track_device_${number}=`))!.split(';')[0]!;
    await lockOutByStrangers(number);

    // Act
    const res = await invoke(handler, withCookies(from(anAddress(), { number, phone: '(415) 555-0142' }), [deviceCookie]));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: job.id });
  });

  it("counts another customer's guesses like a stranger's: their identity owns nothing of this number", async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace(), { customerPhone: '(415) 555-0142' });
    const number = requestNumber(job.id);
    await lockOutByStrangers(number);

    // Act
    const res = await invoke(handler, await asCustomer(from(anAddress(), { number, phone: '(415) 555-0142' }), newId()));

    // Assess
    expect(res.status).toBe(429);
  });

  it('refuses a number that is not 8 characters with a message, before counting anything', async () => {
    // Act
    const res = await invoke(handler, from(anAddress(), { number: 'abc', phone: '(415) 555-0142' }));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields.number).toMatch(/8-character/);
  });
});
