import { describe, expect, it } from 'vitest';
import { workerPenaltyEntity } from '../../shared/entities';
import { handler } from './appeal-strike';
import { penaltiesRepo } from './data/penalties';
import { notificationsRepo } from '../realtime/data/notifications';
import { newId } from '../common/ids';
import { OWNER_PUSH_ID } from '../realtime/push-caller';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { struckPro } from '../testing/strikes';
import { withBearer, workerToken } from '../testing/workers';

const NOTE = 'I was at the door at 10:40; the customer did not answer.';
const appeal = (token: string, id: string, body: unknown = { note: NOTE }) =>
  invoke(handler, withBody(withPath(withBearer(sampleEvent('appeal-strike'), token), { id }), body));

describe('POST /api/workers/strikes/{id}/appeal', () => {
  it("records the pro's appeal on their standing strike and puts it among the owner's open appeals", async () => {
    // Prepare
    const { pro, strike } = await struckPro();
    const token = await workerToken(pro.id);

    // Act
    const res = await appeal(token, strike.id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: strike.id, status: 'appealed', appealNote: NOTE, appealedAt: expect.any(String), decisionNote: null });
    const stored = await penaltiesRepo.findById(strike.id);
    expect(stored).toMatchObject({ status: 'appealed' });
    expect(workerPenaltyEntity.indexes.openAppeals.keysOf(stored!)?.pk).toBe('STRIKE_APPEALS');
    const owner = await notificationsRepo.latest('owner', OWNER_PUSH_ID);
    expect(owner.some((n) => n.type === 'owner_strike_appealed' && n.message.includes(pro.fullName))).toBe(true);
  });

  it('lets a suspended pro appeal', async () => {
    const { pro, strike } = await struckPro({ strikes: 1 });
    expect(pro.status).toBe('suspended');

    const res = await appeal(await workerToken(pro.id), strike.id);

    expect(res.status).toBe(200);
  });

  it('takes one appeal per strike: a second is 409 and keeps the first note', async () => {
    // Prepare
    const { pro, strike } = await struckPro();
    const token = await workerToken(pro.id);
    await appeal(token, strike.id);

    // Act
    const again = await appeal(token, strike.id, { note: 'Second thoughts.' });

    // Assess
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This strike has already been appealed or decided.');
    expect((await penaltiesRepo.findById(strike.id))?.appealNote).toBe(NOTE);
  });

  it("answers 404 for another pro's strike and leaves it standing", async () => {
    // Prepare
    const { strike } = await struckPro();
    const { pro: other } = await struckPro();

    // Act
    const res = await appeal(await workerToken(other.id), strike.id);

    // Assess
    expect(res.status).toBe(404);
    expect((await penaltiesRepo.findById(strike.id))?.status).toBe('standing');
  });

  it('answers 404 for an unknown strike', async () => {
    const { pro } = await struckPro();

    expect((await appeal(await workerToken(pro.id), newId())).status).toBe(404);
  });

  it.each([
    [{}, 'Say why this strike is wrong'],
    [{ note: '  ' }, 'Say why this strike is wrong'],
    [{ note: 'x'.repeat(1001) }, 'Keep the appeal under 1000 characters'],
  ])('refuses %j with 400', async (body, message) => {
    const { pro, strike } = await struckPro();

    const res = await appeal(await workerToken(pro.id), strike.id, body);

    expect(res.status).toBe(400);
    expect(res.body.fields.note).toBe(message);
  });

  it('answers 401 without a worker token', async () => {
    expect((await invoke(handler, sampleEvent('appeal-strike'))).status).toBe(401);
  });
});
