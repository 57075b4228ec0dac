import { describe, expect, it } from 'vitest';
import { CURSOR_MESSAGE } from '../../shared/schemas/page';
import { handler as approveWorker } from './approve-worker';
import { asOwner, everyPage, pendingApplication, pendingCompanyApplication } from '../testing/applications';
import { invoke, sampleEvent } from '../testing/events';
import { handler } from './list-pending-workers';
import { handler as listCompanyApplications } from './list-company-applications';

const page = async (query: Record<string, string>) =>
  invoke(handler, { ...(await asOwner('list-pending-workers')), queryStringParameters: query });

describe('GET /api/admin/workers/pending', () => {
  it("lists pending applications oldest first in the owner's view, without SSN or storage keys", async () => {
    // Prepare
    const first = await pendingApplication({ ssnLastFour: '4417' });
    const second = await pendingApplication({ ssnLastFour: '4417' });

    // Act
    const { items } = await everyPage<{ id: string }>(handler, 'list-pending-workers');

    // Assess
    const ids = items.map((a) => a.id);
    expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    const mine = items.find((a) => a.id === first.id);
    expect(mine).toEqual({
      id: first.id,
      fullName: first.body.fullName,
      email: first.body.emailAddress,
      phone: first.body.phoneNumber,
      address: first.body.homeAddress,
      yearsExp: first.body.yearsExperience,
      categories: first.body.servicesProvided,
      hourlyRate: first.body.hourlyRate,
      workingHours: first.body.workingHours,
      availableSameDay: first.body.availableSameDay,
      submittedAt: expect.any(String),
      documents: ['idFront', 'idBack', 'selfie'],
    });
    const text = JSON.stringify(items);
    expect(text).not.toMatch(/"[^"]*ssn[^"]*"\s*:/i);
    expect(text).not.toMatch(/(?<![\w-])4417(?![\w-])/);
    expect(text).not.toContain('uploads/');
  });

  it('answers a page at a time: at most the limit, and a cursor to the next page until the last', async () => {
    // Prepare
    const made = [await pendingApplication(), await pendingApplication(), await pendingApplication()];

    // Act
    const { items, pages } = await everyPage<{ id: string }>(handler, 'list-pending-workers', 2);

    // Assess: every page but the last is full, no application twice, every new one found.
    expect(pages.slice(0, -1).every((size) => size === 2)).toBe(true);
    expect(pages.at(-1)).toBeLessThanOrEqual(2);
    const ids = items.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { id } of made) expect(ids).toContain(id);
  });

  it('refuses a limit out of bounds and a cursor of another list with 400', async () => {
    // Prepare: a cursor from the company applications' list.
    await Promise.all([pendingCompanyApplication(), pendingCompanyApplication()]);
    const companies = await invoke(listCompanyApplications, { ...(await asOwner('list-company-applications')), queryStringParameters: { limit: '1' } });
    const foreign = companies.body.nextCursor as string;

    // Act
    const tooMany = await page({ limit: '101' });
    const none = await page({ limit: '0' });
    const damaged = await page({ cursor: 'not-a-cursor' });

    // Assess
    expect(tooMany.status).toBe(400);
    expect(none.status).toBe(400);
    expect(damaged).toMatchObject({ status: 400, body: { message: CURSOR_MESSAGE } });
    expect(foreign).toEqual(expect.any(String));
    expect(await page({ cursor: foreign })).toMatchObject({ status: 400, body: { message: CURSOR_MESSAGE } });
  });

  it('drops an application once it is reviewed', async () => {
    const { id } = await pendingApplication();
    await invoke(approveWorker, await asOwner('approve-worker', { id }));

    const { items } = await everyPage<{ id: string }>(handler, 'list-pending-workers');

    expect(items.map((a) => a.id)).not.toContain(id);
  });

  it('answers 401 without the owner session', async () => {
    const res = await invoke(handler, sampleEvent('list-pending-workers'));

    expect(res.status).toBe(401);
  });
});
