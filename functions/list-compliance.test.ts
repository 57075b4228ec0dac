import { describe, expect, it } from 'vitest';
import { handler as listCompliance } from './list-compliance';
import { invoke, sampleEvent, withCookies, withPath } from './lib/testing/events';
import { confirmedDocument, inDays, workerWithToken } from './lib/testing/documents';
import { ownerSessionCookie } from './lib/testing/owner';

async function asOwner(name: string, parts: { params?: Record<string, string>; query?: Record<string, string> } = {}) {
  const event = withCookies(sampleEvent(name), [await ownerSessionCookie()]);
  return { ...(parts.params ? withPath(event, parts.params) : event), queryStringParameters: parts.query ?? {} };
}

describe('GET /api/admin/documents/compliance', () => {
  it('lists every worker who is not terminated with what they miss, expiring and pending counts and the pause', async () => {
    // Prepare
    const { worker, token } = await workerWithToken({ fullName: 'Compliance Row', offersPausedFor: new Set(['liability-insurance']) });
    await confirmedDocument(token, { expirationDate: inDays(12) });
    const terminated = await workerWithToken({ status: 'terminated' });

    // Act
    const res = await invoke(listCompliance, await asOwner('list-compliance'));

    // Assess
    expect(res.status).toBe(200);
    const rows = res.body.workers as { workerId: string }[];
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
});
