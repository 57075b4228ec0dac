import { describe, expect, it } from 'vitest';
import { handler as appeal } from './appeal-strike';
import { handler as listAppeals } from './list-strike-appeals';
import { notificationsRepo } from '../realtime/data/notifications';
import { workersRepo } from '../workers/data/workers';
import { newId } from '../common/ids';
import { asOwner } from '../testing/applications';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { struckPro } from '../testing/strikes';
import { withBearer, workerToken } from '../testing/workers';
import { handler } from './uphold-strike';

const NOTE = 'Your last fix put you 6 km away at the deadline.';
const upholdStrike = async (id: string, body: unknown = { note: NOTE }) => invoke(handler, withBody(await asOwner('uphold-strike', { id }), body));

describe('POST /api/admin/strikes/{id}/uphold', () => {
  it("upholds an appealed strike with the owner's note: it still counts, leaves the open appeals, and the pro is told", async () => {
    // Prepare
    const { pro, strike } = await struckPro();
    const token = await workerToken(pro.id);
    await invoke(appeal, withBody(withPath(withBearer(sampleEvent('appeal-strike'), token), { id: strike.id }), { note: 'I was there.' }));

    // Act
    const res = await upholdStrike(strike.id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: strike.id, status: 'upheld', decisionNote: NOTE });
    expect((await workersRepo.findById(pro.id))?.strikes).toBe(1);
    const open = await invoke(listAppeals, await asOwner('list-strike-appeals'));
    expect(open.body.items.map((s: { id: string }) => s.id)).not.toContain(strike.id);
    const [notice] = await notificationsRepo.latest('worker', pro.id);
    expect(notice).toMatchObject({ title: 'Strike upheld', message: expect.stringContaining(NOTE) });
  });

  it('takes no appeal after an uphold (409)', async () => {
    const { pro, strike } = await struckPro();
    await upholdStrike(strike.id);

    const late = await invoke(appeal, withBody(withPath(withBearer(sampleEvent('appeal-strike'), await workerToken(pro.id)), { id: strike.id }), { note: 'Please.' }));

    expect(late.status).toBe(409);
  });

  it('refuses a decided strike with 409', async () => {
    const { strike } = await struckPro();
    await upholdStrike(strike.id);

    expect((await upholdStrike(strike.id)).status).toBe(409);
  });

  it('refuses a missing note with 400', async () => {
    const { strike } = await struckPro();

    expect((await upholdStrike(strike.id, {})).status).toBe(400);
  });

  it('answers 404 for an unknown strike', async () => {
    expect((await upholdStrike(newId())).status).toBe(404);
  });
});
