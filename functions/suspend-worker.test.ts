import { describe, expect, it } from 'vitest';
import { sessions } from './lib/auth/sessions';
import { isDispatchable } from './lib/data/dispatch-index';
import { notificationsRepo } from './lib/data/notifications';
import { workersRepo } from './lib/data/workers';
import { newId } from './lib/ids';
import { asOwner } from './lib/testing/applications';
import { invoke, sampleEvent, withBody } from './lib/testing/events';
import { strikablePro } from './lib/testing/strikes';
import { createTestWorker, withBearer, workerToken } from './lib/testing/workers';
import { handler as setAvailability } from './set-availability';
import { handler } from './suspend-worker';

const REASON = 'A customer reported damage; suspended while we look into it.';
const suspend = async (id: string, body: unknown = { reason: REASON }) => invoke(handler, withBody(await asOwner('suspend-worker', { id }), body));

describe('POST /api/admin/workers/{id}/suspend', () => {
  it('suspends an active pro: off call, out of dispatch, signed out, and told why', async () => {
    // Prepare
    const pro = await strikablePro();
    const { secret } = await sessions.start('worker', pro.id, pro.email);

    // Act
    const res = await suspend(pro.id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: pro.id, status: 'suspended', isAvailable: false, statusReason: REASON });
    const after = await workersRepo.findById(pro.id);
    expect(after).toMatchObject({ status: 'suspended', isAvailable: false, dispatchEntries: [] });
    expect(isDispatchable(after!)).toBe(false);
    expect(await sessions.find(secret)).toBeUndefined();
    const [notice] = await notificationsRepo.latest('worker', pro.id);
    expect(notice).toMatchObject({ title: 'Account suspended', message: expect.stringContaining(REASON) });
  });

  it('leaves a suspended pro unable to go on call, with the reason why', async () => {
    // Prepare
    const pro = await createTestWorker();
    await suspend(pro.id);
    const token = await workerToken(pro.id);

    // Act
    const res = await invoke(setAvailability, withBody(withBearer(sampleEvent('set-availability'), token), { isAvailable: true }));

    // Assess
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/suspended/);
  });

  it('refuses a pro who is already suspended with 409', async () => {
    const pro = await createTestWorker();
    await suspend(pro.id);

    const again = await suspend(pro.id);

    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Only an active worker can be suspended.');
  });

  it('of two owners suspending at once, suspends once and refuses the other', async () => {
    const pro = await createTestWorker();

    const answers = await Promise.all([suspend(pro.id), suspend(pro.id, { reason: 'Another reason.' })]);

    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  });

  it('refuses a missing reason with 400', async () => {
    const pro = await createTestWorker();

    const res = await suspend(pro.id, {});

    expect(res.status).toBe(400);
    expect((await workersRepo.findById(pro.id))?.status).toBe('active');
  });

  it('answers 404 for an unknown worker', async () => {
    expect((await suspend(newId())).status).toBe(404);
  });
});
