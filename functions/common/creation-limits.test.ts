import { randomInt } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';

// The real limits: the handler tests' shared setup widens them for its crowd behind one address.
vi.hoisted(() => {
  process.env.CREATION_LIMIT_SCALE = '1';
});

const { handler: createBooking } = await import('../bookings/create-booking');
const { handler: createRequest } = await import('../bookings/create-request');
const { handler: hireWorker } = await import('../bookings/hire-worker');
const { handler: createUpload } = await import('../applications/create-upload');
const { handler: submitCompanyApplication } = await import('../applications/submit-company-application');
const { handler: subscribePush } = await import('../realtime/subscribe-push');
const { dispatchableWorker, testPlace } = await import('../testing/dispatch');
const { fromAddress, invoke, sampleEvent, withBody, withCookies } = await import('../testing/events');
const { issuedCustomer } = await import('../testing/customers');

/** A network address of the test's own, so counters other tests filled do not decide it. */
const anAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** The event of a visitor at `address`, as CloudFront passes it on (the edge's own address is API Gateway's sourceIp). */
function from(address: string, event: APIGatewayProxyEventV2): APIGatewayProxyEventV2 {
  return fromAddress(event, address);
}

describe('limits on creating things', () => {
  it('stops a script sending 60 bookings and requests without a cookie from one address: 10 a minute, the rest 429 with Retry-After', async () => {
    // Prepare
    const address = anAddress();
    const calls = Array.from({ length: 60 }, (_, i) =>
      i % 2 === 0 ? () => invoke(createBooking, from(address, sampleEvent('create-booking'))) : () => invoke(createRequest, from(address, sampleEvent('create-request'))),
    );

    // Act
    const answers = [];
    for (const call of calls) answers.push(await call());

    // Assess
    const accepted = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(50);
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused[0]!.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused[0]!.body).toEqual({
      error: 'TooManyRequestsError',
      message: 'Too many requests from this connection in a short time. Please wait 1 minute and try again; if you need help now, contact us.',
    });
    expect(refused.every((a) => a.cookies.length === 0)).toBe(true);
  });

  it('lets a customer book, send a request and hire in a row', async () => {
    // Prepare
    const address = anAddress();
    const { cookie } = await issuedCustomer();
    const place = testPlace();
    const pro = await dispatchableWorker('plumbing', place);
    const hireBody = { ...JSON.parse(sampleEvent('hire-worker').body!), workerId: pro.id, clientLatitude: place.lat, clientLongitude: place.lng };

    // Act
    const booking = await invoke(createBooking, from(address, withCookies(sampleEvent('create-booking'), [cookie])));
    const request = await invoke(createRequest, from(address, withCookies(sampleEvent('create-request'), [cookie])));
    const hire = await invoke(hireWorker, from(address, withCookies(withBody(sampleEvent('hire-worker'), hireBody), [cookie])));

    // Assess
    expect([booking.status, request.status, hire.status]).toEqual([201, 201, 201]);
  });

  it('holds one customer to 10 jobs an hour, from whichever addresses they call', async () => {
    const { cookie } = await issuedCustomer();

    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await invoke(createRequest, from(anAddress(), withCookies(sampleEvent('create-request'), [cookie]))));

    expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(answers[10]!.status).toBe(429);
  });

  it('refuses a bad form without counting it', async () => {
    const address = anAddress();

    for (let i = 0; i < 12; i++) await invoke(createBooking, from(address, withBody(sampleEvent('create-booking'), { name: '' })));
    const good = await invoke(createBooking, from(address, sampleEvent('create-booking')));

    expect(good.status).toBe(201);
  });

  it('holds one address to 30 upload links an hour', async () => {
    const address = anAddress();

    const answers = [];
    for (let i = 0; i < 31; i++) answers.push(await invoke(createUpload, from(address, sampleEvent('create-upload'))));

    expect(answers.slice(0, 30).every((a) => a.status === 200 || a.status === 201)).toBe(true);
    expect(answers[30]!.status).toBe(429);
    expect(answers[30]!.body.message).toMatch(/^Too many uploads from this connection/);
  });

  it('holds one address to 5 applications an hour', async () => {
    const address = anAddress();

    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await invoke(submitCompanyApplication, from(address, sampleEvent('submit-company-application'))));

    expect(answers.slice(0, 5).every((a) => a.status !== 429)).toBe(true);
    expect(answers[5]!.status).toBe(429);
    expect(answers[5]!.body.message).toMatch(/^Too many applications from this connection/);
  });

  it('holds one person to 10 push sign-ups an hour', async () => {
    const { cookie } = await issuedCustomer();

    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await invoke(subscribePush, from(anAddress(), withCookies(sampleEvent('subscribe-push'), [cookie]))));

    expect(answers.slice(0, 10).every((a) => a.status !== 429)).toBe(true);
    expect(answers[10]!.status).toBe(429);
  });
});
