import { describe, expect, it } from 'vitest';
import { handler as listCompliance } from './list-compliance';
import { invoke, sampleEvent, withCookies, withPath } from '../testing/events';
import { confirmedDocument, inDays, workerWithToken } from '../testing/documents';
import { ownerSessionCookie } from '../testing/owner';

async function asOwner(name: string, parts: { params?: Record<string, string>; query?: Record<string, string> } = {}) {
  const event = withCookies(sampleEvent(name), [await ownerSessionCookie()]);
  return { ...(parts.params ? withPath(event, parts.params) : event), queryStringParameters: parts.query ?? {} };
}

type Row = { workerId: string };

/** Every row, page after page of `limit` (other test files add workers meanwhile: the walk is bounded). */
async function walk(limit: string, until: (rows: Row[]) => boolean): Promise<{ rows: Row[]; pageSizes: number[] }> {
  const rows: Row[] = [];
  const pageSizes: number[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 200; page++) {
    const res = await invoke(listCompliance, await asOwner('list-compliance', { query: { limit, ...(cursor ? { cursor } : {}) } }));
    expect(res.status).toBe(200);
    rows.push(...res.body.items);
    pageSizes.push(res.body.items.length);
    cursor = res.body.nextCursor ?? undefined;
    if (!cursor || until(rows)) break;
  }
  return { rows, pageSizes };
}

describe('GET /api/admin/documents/compliance', () => {
  it('lists every worker who is not terminated with what they miss, expiring and pending counts and the pause', async () => {
    // Prepare
    const { worker, token } = await workerWithToken({ fullName: 'Compliance Row', offersPausedFor: new Set(['liability-insurance']) });
    await confirmedDocument(token, { expirationDate: inDays(12) });
    const terminated = await workerWithToken({ status: 'terminated' });

    // Act
    const { rows } = await walk('50', (seen) => seen.some((r) => r.workerId === worker.id));

    // Assess
    expect(rows.find((r) => r.workerId === worker.id)).toEqual({
      workerId: worker.id,
      fullName: 'Compliance Row',
      missingRequired: ['Government-issued photo ID', 'Trade license', 'Form W-9', 'Background check disclosure and authorization', "Workers' compensation certificate or exemption"],
      expiringCount: 1,
      pendingReviewCount: 1,
      offersPaused: true,
    });
    expect(rows.some((r) => r.workerId === terminated.worker.id)).toBe(false);
  });

  it('answers a page of workers at a time, newest first, each row counted from that worker\'s own documents', async () => {
    // Prepare
    const older = await workerWithToken({ fullName: 'Older Worker' });
    const newer = await workerWithToken({ fullName: 'Newer Worker' });
    await confirmedDocument(newer.token);

    // Act
    const { rows, pageSizes } = await walk('1', (seen) => seen.some((r) => r.workerId === older.worker.id));

    // Assess
    expect(pageSizes.every((size) => size <= 1)).toBe(true);
    const ids = rows.map((r) => r.workerId);
    expect(ids.indexOf(newer.worker.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(newer.worker.id)).toBeLessThan(ids.indexOf(older.worker.id));
    expect(rows.find((r) => r.workerId === newer.worker.id)).toMatchObject({ pendingReviewCount: 1 });
    expect(rows.find((r) => r.workerId === older.worker.id)).toMatchObject({ pendingReviewCount: 0, expiringCount: 0 });
  });
});
