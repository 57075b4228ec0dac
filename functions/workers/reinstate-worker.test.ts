import { describe, expect, it } from 'vitest';
import { notificationsRepo } from '../realtime/data/notifications';
import { workersRepo } from './data/workers';
import { newId } from '../common/ids';
import { asOwner } from '../testing/applications';
import { invoke, withBody } from '../testing/events';
import { lateArrival, strikablePro } from '../testing/strikes';
import { createTestWorker } from '../testing/workers';
import { handler } from './reinstate-worker';
import { handler as voidStrike } from '../arrival/void-strike';

const REASON = 'Reviewed: both late arrivals were road closures.';
const reinstate = async (id: string, body: unknown = { reason: REASON }) => invoke(handler, withBody(await asOwner('reinstate-worker', { id }), body));

describe('POST /api/admin/workers/{id}/reinstate', () => {
  it('reinstates a pro suspended by two strikes, who stays suspended after a void until then', async () => {
    // Prepare: two late arrivals suspend the pro; the owner voids one.
    const pro = await strikablePro();
    await lateArrival(pro);
    const second = await lateArrival(pro);
    expect((await workersRepo.findById(pro.id))?.status).toBe('suspended');
    await invoke(voidStrike, withBody(await asOwner('void-strike', { id: second.id }), { note: 'Road closed.' }));
    expect(await workersRepo.findById(pro.id)).toMatchObject({ status: 'suspended', strikes: 1 });

    // Act
    const res = await reinstate(pro.id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: pro.id, status: 'active', strikes: 1, statusReason: REASON });
    const [notice] = await notificationsRepo.latest('worker', pro.id);
    expect(notice).toMatchObject({ title: 'Account reinstated', message: expect.stringContaining(REASON) });
  });

  it('refuses an active pro with 409', async () => {
    const pro = await createTestWorker();

    const res = await reinstate(pro.id);

    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Only a suspended worker can be reinstated.');
  });

  it('refuses a terminated pro with 409: termination is final', async () => {
    const pro = await createTestWorker({ status: 'terminated' });

    expect((await reinstate(pro.id)).status).toBe(409);
    expect((await workersRepo.findById(pro.id))?.status).toBe('terminated');
  });

  it('refuses a reason past 500 characters with 400', async () => {
    const pro = await createTestWorker({ status: 'suspended' });

    const res = await reinstate(pro.id, { reason: 'x'.repeat(501) });

    expect(res.status).toBe(400);
    expect((await workersRepo.findById(pro.id))?.status).toBe('suspended');
  });

  it('answers 404 for an unknown worker', async () => {
    expect((await reinstate(newId())).status).toBe(404);
  });
});
