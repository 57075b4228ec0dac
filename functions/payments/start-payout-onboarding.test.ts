import { describe, expect, it } from 'vitest';
import { handler } from './start-payout-onboarding';
import { payoutAccountsRepo } from './data/payout-accounts';
import { workersRepo } from '../workers/data/workers';
import { invoke, sampleEvent } from '../testing/events';
import { testStripe } from '../testing/stripe';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('start-payout-onboarding');

describe('POST /api/workers/payouts/onboard', () => {
  it('creates one Express account for the worker, keeps it on the profile and links to onboarding that returns to earnings', async () => {
    // Prepare
    const worker = await createTestWorker();
    const event = withBearer(sample, await workerToken(worker.id));

    // Act
    const first = await invoke(handler, event);
    const again = await invoke(handler, event);

    // Assess
    expect(first.status).toBe(200);
    expect(first.body.url).toMatch(/\/connect\/onboarding\//);
    const stored = await workersRepo.findById(worker.id);
    expect(stored?.stripeAccountId).toMatch(/^acct_/);
    expect(stored?.payoutsEnabled).toBe(false);
    const account = await testStripe.accounts.retrieve(stored!.stripeAccountId!);
    expect(account).toMatchObject({ type: 'express', email: worker.email, metadata: { workerId: worker.id } });
    expect(again.status).toBe(200);
    expect((await workersRepo.findById(worker.id))?.stripeAccountId).toBe(stored?.stripeAccountId);
  });

  it('keeps one account when the worker presses the button twice at once', async () => {
    const worker = await createTestWorker();
    const event = withBearer(sample, await workerToken(worker.id));

    const results = await Promise.all([invoke(handler, event), invoke(handler, event)]);

    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const stored = await workersRepo.findById(worker.id);
    expect(stored?.stripeAccountId).toMatch(/^acct_/);
    expect(await payoutAccountsRepo.workerIdOf(stored!.stripeAccountId!)).toBe(worker.id);
    // Both links are live onboarding pages of that one account.
    const pages = await Promise.all(results.map((r) => fetch(r.body.url)));
    expect(pages.map((p) => p.status)).toEqual([200, 200]);
  });

  it('refuses a worker who is not active (403) and creates no account', async () => {
    const worker = await createTestWorker({ status: 'terminated' });

    const res = await invoke(handler, withBearer(sample, await workerToken(worker.id)));

    expect(res.status).toBe(403);
    expect((await workersRepo.findById(worker.id))?.stripeAccountId).toBeUndefined();
  });
});
