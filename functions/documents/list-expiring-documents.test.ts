import { describe, expect, it } from 'vitest';
import { handler as listExpiring } from './list-expiring-documents';
import { invoke } from '../testing/events';
import { asWorker, inDays, storedDocument, workerWithToken } from '../testing/documents';

const expiring = (token: string, days: string) => invoke(listExpiring, asWorker('list-expiring-documents', token, { params: { days } }));

describe('GET /api/documents/expiring/{days}', () => {
  it('lists the documents expiring within the days asked, soonest first, flagged as expiring soon', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();
    const soon = await storedDocument(worker.id, { categoryId: 'government-id', expirationDate: inDays(5) });
    const later = await storedDocument(worker.id, { categoryId: 'liability-insurance', expirationDate: inDays(25) });
    await storedDocument(worker.id, { categoryId: 'workers-comp', expirationDate: inDays(90) });
    await storedDocument(worker.id, { categoryId: 'trade-license', expirationDate: inDays(-3) });
    await storedDocument(worker.id, { categoryId: 'w9', expirationDate: null });

    // Act
    const res = await expiring(token, '30');

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.documents.map((d: { id: string }) => d.id)).toEqual([soon.id, later.id]);
    expect(res.body.documents.every((d: { expiringSoon: boolean }) => d.expiringSoon)).toBe(true);
  });

  it.each(['0', '366', 'abc', '-1', '1.5'])('refuses %s days', async (days) => {
    const { token } = await workerWithToken();

    const res = await expiring(token, days);

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ days: 'days must be a whole number from 1 to 365' });
  });
});
