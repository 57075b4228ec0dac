import { describe, expect, it } from 'vitest';
import { asOwner } from '../testing/applications';
import { invoke, sampleEvent } from '../testing/events';
import { createTestWorker } from '../testing/workers';
import { handler } from './list-workers';

const page = async (query: Record<string, string> = {}) => invoke(handler, { ...(await asOwner('list-workers')), queryStringParameters: query });

/** Every page, following the cursor. */
async function everyWorker(query: Record<string, string>) {
  const items: { id: string; status: string }[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const res = await page({ ...query, ...(cursor ? { cursor } : {}) });
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(Number(query.limit ?? 50));
    items.push(...res.body.items);
    cursor = res.body.nextCursor ?? undefined;
    pages++;
  } while (cursor);
  return { items, pages };
}

describe('GET /api/admin/workers/all', () => {
  it("lists workers in the owner's view, a page at a time", async () => {
    // Prepare
    const worker = await createTestWorker({ fullName: 'Paged Paula' });

    // Act
    const first = await page({ limit: '1' });
    const { items, pages } = await everyWorker({ limit: '100' });

    // Assess
    expect(first.body.items).toHaveLength(1);
    expect(typeof first.body.nextCursor).toBe('string');
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(items.find((w) => w.id === worker.id)).toEqual({
      id: worker.id,
      fullName: 'Paged Paula',
      email: worker.email,
      phone: worker.phone,
      createdAt: worker.createdAt,
      yearsExp: worker.yearsExp,
      hourlyRate: worker.hourlyRate,
      categories: worker.categories,
      status: 'active',
      isAvailable: false,
      strikes: 0,
      statusReason: null,
      statusChangedAt: null,
    });
    // Keys, not any text: random ids and emails may spell "ssn".
    expect(JSON.stringify(items)).not.toMatch(/"(?:[^"]*ssn[^"]*|passwordHash|pk)"\s*:/i);
  });

  it('lists only the workers of the status asked for', async () => {
    // Prepare
    const suspended = await createTestWorker({ status: 'suspended', statusReason: 'Under review.' });
    const active = await createTestWorker();

    // Act
    const { items } = await everyWorker({ limit: '100', status: 'suspended' });

    // Assess
    expect(items.every((w) => w.status === 'suspended')).toBe(true);
    expect(items.map((w) => w.id)).toContain(suspended.id);
    expect(items.map((w) => w.id)).not.toContain(active.id);
  });

  it('refuses an unknown status and a damaged cursor with 400', async () => {
    expect((await page({ status: 'banned' })).status).toBe(400);
    expect((await page({ cursor: 'not-a-cursor' })).status).toBe(400);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('list-workers'))).status).toBe(401);
  });
});
