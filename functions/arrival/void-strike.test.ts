import { describe, expect, it } from 'vitest';
import { workerPenaltyEntity } from '../../shared/entities';
import { handler as appeal } from './appeal-strike';
import { penaltiesRepo } from './data/penalties';
import { notificationsRepo } from '../realtime/data/notifications';
import { workersRepo } from '../workers/data/workers';
import { newId } from '../common/ids';
import { asOwner } from '../testing/applications';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { lateArrival, struckPro } from '../testing/strikes';
import { withBearer, workerToken } from '../testing/workers';
import { handler as uphold } from './uphold-strike';
import { handler } from './void-strike';

const NOTE = 'The road was closed; the customer confirmed it.';
const voidStrike = async (id: string, body: unknown = { note: NOTE }) => invoke(handler, withBody(await asOwner('void-strike', { id }), body));

describe('POST /api/admin/strikes/{id}/void', () => {
  it("voids an appealed strike with the owner's note, takes it off the pro's count and out of the open appeals, and tells the pro", async () => {
    // Prepare
    const { pro, strike } = await struckPro();
    await invoke(appeal, withBody(withPath(withBearer(sampleEvent('appeal-strike'), await workerToken(pro.id)), { id: strike.id }), { note: 'Road closed.' }));

    // Act
    const res = await voidStrike(strike.id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: strike.id, status: 'voided', decisionNote: NOTE, decidedAt: expect.any(String), decidedBy: expect.any(String), appealNote: 'Road closed.' });
    expect((await workersRepo.findById(pro.id))?.strikes).toBe(0);
    const stored = await penaltiesRepo.findById(strike.id);
    expect(workerPenaltyEntity.indexes.openAppeals.keysOf(stored!)).toBeUndefined();
    const [notice] = await notificationsRepo.latest('worker', pro.id);
    expect(notice).toMatchObject({ title: 'Strike removed', message: expect.stringContaining(NOTE) });
  });

  it('voids a strike the pro never appealed', async () => {
    const { pro, strike } = await struckPro();

    expect((await voidStrike(strike.id)).status).toBe(200);
    expect((await workersRepo.findById(pro.id))?.strikes).toBe(0);
  });

  it('leaves a pro suspended by two strikes suspended after one is voided, with one strike counted', async () => {
    // Prepare
    const { pro, strike } = await struckPro();
    await lateArrival(pro);

    // Act
    await voidStrike(strike.id);

    // Assess
    expect(await workersRepo.findById(pro.id)).toMatchObject({ status: 'suspended', strikes: 1 });
  });

  it('of two owners voiding the same strike at once, one decides and the other gets 409; the count drops once', async () => {
    // Prepare
    const { pro, strike } = await struckPro({ strikes: 1 });
    expect(pro.strikes).toBe(2);

    // Act
    const answers = await Promise.all([voidStrike(strike.id), voidStrike(strike.id, { note: 'Another note.' })]);

    // Assess
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect((await workersRepo.findById(pro.id))?.strikes).toBe(1);
  });

  it('of a void and an uphold at once, exactly one decides', async () => {
    const { pro, strike } = await struckPro();

    const [voided, upheld] = await Promise.all([voidStrike(strike.id), invoke(uphold, withBody(await asOwner('uphold-strike', { id: strike.id }), { note: 'Kept.' }))]);

    expect([voided.status, upheld.status].sort()).toEqual([200, 409]);
    expect((await workersRepo.findById(pro.id))?.strikes).toBe(voided.status === 200 ? 0 : 1);
  });

  it('refuses a decided strike with 409', async () => {
    const { strike } = await struckPro();
    await voidStrike(strike.id);

    const again = await voidStrike(strike.id);

    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This strike has already been decided.');
  });

  it.each([[{}], [{ note: '' }], [{ note: 'x'.repeat(1001) }], [{ note: NOTE, status: 'voided' }]])('refuses %j with 400', async (body) => {
    const { pro, strike } = await struckPro();

    expect((await voidStrike(strike.id, body)).status).toBe(400);
    expect((await workersRepo.findById(pro.id))?.strikes).toBe(1);
  });

  it('answers 404 for an unknown strike', async () => {
    expect((await voidStrike(newId())).status).toBe(404);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('void-strike'))).status).toBe(401);
  });
});
