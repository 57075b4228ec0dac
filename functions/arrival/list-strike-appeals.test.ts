import { describe, expect, it } from 'vitest';
import { handler as appeal } from './appeal-strike';
import { handler } from './list-strike-appeals';
import { asOwner } from '../testing/applications';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { struckPro } from '../testing/strikes';
import { withBearer, workerToken } from '../testing/workers';

async function appealedStrike(note: string) {
  const { pro, strike } = await struckPro();
  await invoke(appeal, withBody(withPath(withBearer(sampleEvent('appeal-strike'), await workerToken(pro.id)), { id: strike.id }), { note }));
  return { pro, strike };
}

const page = async (query: Record<string, string> = {}) => invoke(handler, { ...(await asOwner('list-strike-appeals')), queryStringParameters: query });

/** Every page of the open appeals, following the cursor. */
async function allOpenAppeals(limit: string) {
  const items: { id: string }[] = [];
  let cursor: string | undefined;
  do {
    const res = await page({ limit, ...(cursor ? { cursor } : {}) });
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(Number(limit));
    items.push(...res.body.items);
    cursor = res.body.nextCursor ?? undefined;
  } while (cursor);
  return items;
}

describe('GET /api/admin/strikes/appeals', () => {
  it('lists the open appeals, oldest first, a page at a time, with the pro and the evidence', async () => {
    // Prepare
    const a = await appealedStrike('First appeal.');
    const b = await appealedStrike('Second appeal.');
    const { strike: notAppealed } = await struckPro();

    // Act
    const items = await allOpenAppeals('2');
    const ids = items.map((s) => s.id);

    // Assess
    expect(ids.indexOf(a.strike.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(b.strike.id)).toBeGreaterThan(ids.indexOf(a.strike.id));
    expect(ids).not.toContain(notAppealed.id);
    expect(items.find((s) => s.id === a.strike.id)).toMatchObject({ workerId: a.pro.id, workerName: a.pro.fullName, status: 'appealed', appealNote: 'First appeal.', evidence: { arriveBy: expect.any(String) } });
  });

  it('refuses a cursor from another list with 400', async () => {
    const res = await page({ cursor: Buffer.from(JSON.stringify({ pk: 'WORKERS', sk: 'x' })).toString('base64url') });

    expect(res.status).toBe(400);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('list-strike-appeals'))).status).toBe(401);
  });
});
