import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { dynamoError, dynamoOperation, startFaultProxy, type FaultProxy } from '../../infra/testing/fault-proxy';

/**
 * Faults on the wire between the functions and what they depend on. Every service the functions
 * call (DynamoDB, S3, Scheduler, Stripe) is reached through a proxy that forwards until a test
 * breaks it; the functions run unchanged, with their real SDK clients, retries and timeouts.
 * The modules are imported only after the endpoints point at the proxies, since they read their
 * environment once, at import.
 */
const proxies = {
  dynamo: await startFaultProxy(process.env.DYNAMODB_ENDPOINT!),
  s3: await startFaultProxy(process.env.S3_ENDPOINT!),
  scheduler: await startFaultProxy(process.env.SCHEDULER_ENDPOINT!),
  stripe: await startFaultProxy(process.env.STRIPE_API_URL!),
} satisfies Record<string, FaultProxy>;
Object.assign(process.env, {
  DYNAMODB_ENDPOINT: proxies.dynamo.url,
  S3_ENDPOINT: proxies.s3.url,
  SCHEDULER_ENDPOINT: proxies.scheduler.url,
  STRIPE_API_URL: proxies.stripe.url,
  // A stuck call is given up after a second here (2 s in the cloud), so a hang costs a test seconds, not minutes.
  DYNAMODB_TIMEOUT_MS: '1000',
});

const { bookingEntity } = await import('../../shared/entities');
const { queryAll } = await import('../common/data/query');
const { handler: createBooking } = await import('../bookings/create-booking');
const { handler: getBooking } = await import('../bookings/get-booking');
const { handler: acceptJob } = await import('../jobs/accept-job');
const { handler: createCheckout } = await import('../payments/create-checkout-session');
const { handler: stripeWebhook } = await import('../payments/handle-stripe-webhook');
const { handler: confirmUpload } = await import('../documents/confirm-document-upload');
const { handler: createUpload } = await import('../documents/create-document-upload');
const { handler: getDownload } = await import('../documents/get-document-download');
const { documentsRepo, documentAccessLog } = await import('../documents/data/documents');
const { invoicesRepo } = await import('../payments/data/invoices');
const { jobsRepo } = await import('../jobs/data/jobs');
const { notificationsRepo } = await import('../realtime/data/notifications');
const { workersRepo } = await import('../workers/data/workers');
const { timerNames } = await import('../jobs/dispatch');
const { newId } = await import('../common/ids');
const { deleteObject } = await import('../common/storage');
const { issuedCustomer } = await import('../testing/customers');
const { dispatchableWorker, findSchedule, offeredJob, testCategory } = await import('../testing/dispatch');
const { confirmedDocument, asWorker, fileBytes, postFile, uploadBody, workerWithToken } = await import('../testing/documents');
const { invoke, sampleEvent, withBody, withCookies, withPath } = await import('../testing/events');
const { asCustomer, invoicedJob } = await import('../testing/money');
const { completedSession, signedStripeEvent } = await import('../testing/stripe');
const { withBearer, workerToken } = await import('../testing/workers');

afterEach(() => {
  for (const proxy of Object.values(proxies)) proxy.set(undefined);
});
afterAll(async () => {
  await Promise.all(Object.values(proxies).map((proxy) => proxy.close()));
});

/** What every fault answer must be: a 503 a person can act on, with when to come back. */
function expectUnavailable(res: { status: number; headers: Record<string, unknown>; body: any }, message: RegExp) {
  expect(res.status).toBe(503);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.body).toEqual({ error: 'ServiceUnavailableError', message: expect.stringMatching(message) });
  expect(JSON.stringify(res.body)).not.toMatch(/stack|Exception|ECONN|at .*\.ts/);
}

async function bookingsOf(customerId: string) {
  // Only the bookings (the range is their sort prefix): the customer's partition holds their jobs too (among their requests).
  return queryAll(bookingEntity.indexes.customerBookings.range(customerId));
}

const bookingSample = sampleEvent('create-booking');
/** A booking by `customerId`, a customer the server issued (so what was filed under them can be counted). */
function book(customerId: string) {
  return invoke(createBooking, withCookies(bookingSample, [`customer_id=${customerId}`]));
}

describe('DynamoDB throttling or timing out on a write', () => {
  it('answers a booking whose write is throttled with 503 and Retry-After, after the SDK retried, and writes nothing', async () => {
    // Prepare
    const { customerId } = await issuedCustomer();
    proxies.dynamo.set(dynamoError('ProvisionedThroughputExceededException', 'The level of configured provisioned throughput for the table was exceeded.'), dynamoOperation('TransactWriteItems'));

    // Act
    const res = await book(customerId);

    // Assess
    expectUnavailable(res, /busy right now\. Please try again in a few seconds\./);
    expect(proxies.dynamo.faulted).toBeGreaterThanOrEqual(2);
    expect(await bookingsOf(customerId)).toEqual([]);

    // The next attempt, once DynamoDB has capacity again, books it.
    proxies.dynamo.set(undefined);
    const again = await book(customerId);
    expect(again.status).toBe(201);
    expect(await bookingsOf(customerId)).toHaveLength(1);
  });

  it('answers 503 when the transaction is cancelled by throttling (a reason per action), not a refusal', async () => {
    // Prepare
    const { customerId } = await issuedCustomer();
    proxies.dynamo.set(
      {
        kind: 'answer',
        status: 400,
        headers: { 'content-type': 'application/x-amz-json-1.0' },
        body: JSON.stringify({
          __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
          message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [ThrottlingError, None]',
          CancellationReasons: [{ Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity of your table or index.' }, { Code: 'None' }],
        }),
      },
      dynamoOperation('TransactWriteItems'),
    );

    // Act
    const res = await book(customerId);

    // Assess
    expectUnavailable(res, /Please try again in a few seconds/);
    expect(await bookingsOf(customerId)).toEqual([]);
  });

  it('answers 503 when the write never answers (the client times out), and writes nothing', async () => {
    // Prepare
    const { customerId } = await issuedCustomer();
    proxies.dynamo.set({ kind: 'hang' }, dynamoOperation('TransactWriteItems'));

    // Act
    const res = await book(customerId);

    // Assess
    expectUnavailable(res, /Please try again in a few seconds/);
    expect(proxies.dynamo.faulted).toBeGreaterThanOrEqual(2);
    proxies.dynamo.set(undefined);
    expect(await bookingsOf(customerId)).toEqual([]);
  });

  it('books once when the write landed but its answer was lost: the SDK retry carries the same request token', async () => {
    // Prepare: the first attempt reaches DynamoDB and is applied; its answer never comes back.
    const { customerId } = await issuedCustomer();
    proxies.dynamo.set({ kind: 'forward-then-hang' }, dynamoOperation('TransactWriteItems'), 1);

    // Act
    const res = await book(customerId);

    // Assess
    expect(res.status).toBe(201);
    expect(proxies.dynamo.faulted).toBe(1);
    const stored = await bookingsOf(customerId);
    expect(stored).toHaveLength(1);
    expect((await invoke(getBooking, withPath(sampleEvent('get-booking'), { id: res.body.id }))).body.id).toBe(res.body.id);
  });
});

describe('Scheduler refusing the arrival timer when a job is accepted', () => {
  async function acceptAs(workerId: string, jobId: string) {
    return invoke(acceptJob, withBearer(withPath(withBody(sampleEvent('accept-job'), { workerId }), { jobId }), await workerToken(workerId)));
  }

  for (const [what, fault] of [
    ['is down', { kind: 'refuse' }],
    ['throttles', { kind: 'answer', status: 429, headers: { 'x-amzn-errortype': 'ThrottlingException' }, body: JSON.stringify({ Message: 'Rate exceeded' }) }],
    ['is over its schedule quota', { kind: 'answer', status: 402, headers: { 'x-amzn-errortype': 'ServiceQuotaExceededException' }, body: JSON.stringify({ Message: 'Quota exceeded' }) }],
  ] as const) {
    it(`leaves the offer open and answers 503 when Scheduler ${what}; the next accept wins with its timer`, async () => {
      // Prepare
      const category = testCategory();
      const worker = await dispatchableWorker(category, null);
      const job = await offeredJob(category, [worker.id]);
      proxies.scheduler.set(fault, (request) => request.method === 'POST' && request.path.includes('/schedules/arrive-'));

      // Act
      const res = await acceptAs(worker.id, job.id);

      // Assess
      expectUnavailable(res, /^We could not start your 45-minute arrival timer, so the job was not accepted\. It is still offered to you\./);
      expect(proxies.scheduler.faulted).toBeGreaterThanOrEqual(1);
      expect(await jobsRepo.findById(job.id)).toMatchObject({ state: 'offered', acceptedBy: null, offers: { [worker.id]: job.offers[worker.id] } });
      expect((await workersRepo.findById(worker.id))?.activeJobId).toBeUndefined();
      proxies.scheduler.set(undefined);
      expect(await findSchedule(timerNames.arrival(job.id, worker.id))).toBeUndefined();

      const again = await acceptAs(worker.id, job.id);
      expect(again.status).toBe(200);
      expect(await jobsRepo.findById(job.id)).toMatchObject({ state: 'accepted', acceptedBy: worker.id });
      expect(await findSchedule(timerNames.arrival(job.id, worker.id))).toBeDefined();
    });
  }

  it('takes back the timer it made when the accept is then refused', async () => {
    // Prepare: the job is offered to a pro who is still on another job, so the accept's write refuses.
    const category = testCategory();
    const worker = await dispatchableWorker(category, null, { activeJobId: newId() });
    const job = await offeredJob(category, [worker.id]);

    // Act
    const res = await acceptAs(worker.id, job.id);

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Finish your current job before accepting another.');
    expect(await findSchedule(timerNames.arrival(job.id, worker.id))).toBeUndefined();
    expect(await jobsRepo.findById(job.id)).toMatchObject({ state: 'offered' });
  });
});

describe('Stripe unreachable', () => {
  const payEvent = sampleEvent('create-checkout-session');
  const pay = async (customerId: string, invoiceId: string) => invoke(createCheckout, await asCustomer(withBody(payEvent, { invoiceId }), customerId));

  it('answers a checkout with a clear 503 and leaves the invoice as it was; the next attempt opens the session', async () => {
    // Prepare
    const { job, invoice } = await invoicedJob({ verified: true });
    proxies.stripe.set({ kind: 'refuse' });

    // Act
    const res = await pay(job.customerId, invoice.id);

    // Assess
    expectUnavailable(res, /^Card payments cannot be reached right now; your invoice has not changed\./);
    expect(proxies.stripe.faulted).toBeGreaterThanOrEqual(2);
    expect(await invoicesRepo.findById(invoice.id)).toEqual(invoice);

    proxies.stripe.set(undefined);
    const again = await pay(job.customerId, invoice.id);
    expect(again.status).toBe(200);
    expect(again.body.sessionId).toMatch(/^cs_test_/);
    expect((await invoicesRepo.findById(invoice.id))?.stripeSessionId).toBe(again.body.sessionId);
  });

  it('processes a webhook exactly once when Stripe retries it after our handler failed midway', async () => {
    // Prepare: the invoice write lands, then DynamoDB throttles the job's write, so the handler fails midway.
    const { invoice, job, worker } = await invoicedJob({ verified: true });
    const event = signedStripeEvent('checkout.session.completed', completedSession(invoice));
    const deliver = () => invoke(stripeWebhook, event);
    proxies.dynamo.set(
      dynamoError('ThrottlingException', 'Rate of requests exceeds the allowed throughput.'),
      (request) => dynamoOperation('UpdateItem')(request) && request.body.includes(`"JOB#${job.id}"`),
    );

    // Act
    const first = await deliver();
    proxies.dynamo.set(undefined);
    const retried = await deliver();
    const third = await deliver();

    // Assess
    expect(first.status).toBe(503);
    expect(await invoicesRepo.findById(invoice.id)).toMatchObject({ paymentStatus: 'paid' });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ received: true });
    expect(third.body).toEqual({ received: true, duplicate: true });
    expect(await jobsRepo.findById(job.id)).toMatchObject({ state: 'paid' });
    const told = (await notificationsRepo.latest('worker', worker.id)).filter((n) => n.type === 'payment_received');
    expect(told).toHaveLength(1);
    const customerTold = (await notificationsRepo.latest('customer', job.customerId)).filter((n) => n.type === 'payment_received');
    expect(customerTold).toHaveLength(1);
  });
});

describe('S3 unreachable', () => {
  it('refuses a document confirm with a clear 503, stores no record, keeps the upload, and confirms once S3 is back', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();
    const bytes = fileBytes.pdf(2048);
    const ticket = await invoke(createUpload, asWorker('create-document-upload', token, { body: uploadBody({ fileSize: bytes.length }) }));
    expect((await postFile(ticket.body, bytes, ticket.body.fields['Content-Type'])).ok).toBe(true);
    proxies.s3.set({ kind: 'refuse' });

    // Act
    const res = await invoke(confirmUpload, asWorker('confirm-document-upload', token, { params: { uploadId: ticket.body.uploadId } }));

    // Assess
    expectUnavailable(res, /^Document storage cannot be reached right now\. Your upload is kept\./);
    expect(await documentsRepo.findById(ticket.body.uploadId)).toBeUndefined();

    proxies.s3.set(undefined);
    const again = await invoke(confirmUpload, asWorker('confirm-document-upload', token, { params: { uploadId: ticket.body.uploadId } }));
    expect(again.status).toBe(201);
    expect(again.body.document).toMatchObject({ id: ticket.body.uploadId, workerId: worker.id, fileSize: bytes.length });
  });

  it('answers a download with a clear 503 instead of a link that cannot work, and logs the attempt as failed', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const doc = await confirmedDocument(token);
    proxies.s3.set({ kind: 'refuse' });
    const download = () => invoke(getDownload, asWorker('get-document-download', token, { params: { id: doc.id }, query: { mode: 'download' } }));

    // Act
    const res = await download();

    // Assess
    expectUnavailable(res, /^Document storage cannot be reached right now\./);
    proxies.s3.set(undefined);
    const again = await download();
    expect(again.status).toBe(200);
    expect(again.body.downloadUrl).toMatch(/X-Amz-Signature=/);
    const log = await documentAccessLog.ofDocument(doc.id);
    expect(log.map((row) => row.success)).toEqual(expect.arrayContaining([false, true]));
  });

  it('answers 404 for a document whose file is gone from storage, rather than a link to nothing', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const doc = await confirmedDocument(token);
    const stored = await documentsRepo.findById(doc.id);
    await deleteObject(stored!.key);

    // Act
    const res = await invoke(getDownload, asWorker('get-document-download', token, { params: { id: doc.id } }));

    // Assess
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('The file of this document is missing from storage. Upload it again.');
  });
});
