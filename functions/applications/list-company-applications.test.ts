import { describe, expect, it } from 'vitest';
import { CURSOR_MESSAGE } from '../../shared/schemas/page';
import { freshEmail, asOwner, everyPage, uploadFile } from '../testing/applications';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { handler } from './list-company-applications';
import { handler as submitCompanyApplication } from './submit-company-application';

async function companyApplication(overrides: Record<string, unknown> = {}) {
  const sample = sampleEvent('submit-company-application');
  const body = { ...JSON.parse(sample.body!), emailAddress: freshEmail(), ...overrides };
  const res = await invoke(submitCompanyApplication, withBody(sample, body));
  return { id: res.body.id as string, body };
}

describe('GET /api/admin/company-applications', () => {
  it('lists pending company applications oldest first, documents by name only', async () => {
    // Prepare
    const insuranceCertificateUrl = await uploadFile('company-documents', 'application/pdf');
    const first = await companyApplication({ insuranceCertificateUrl });
    const second = await companyApplication();

    // Act
    const { items } = await everyPage<{ id: string; documents: string[] }>(handler, 'list-company-applications');

    // Assess
    const ids = items.map((a) => a.id);
    expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(items.find((a) => a.id === first.id)).toEqual({
      id: first.id,
      companyName: first.body.companyName,
      businessType: first.body.businessType,
      contactPersonName: first.body.contactPersonName,
      phoneNumber: first.body.phoneNumber,
      emailAddress: first.body.emailAddress,
      companyAddress: first.body.companyAddress,
      einTaxId: first.body.einTaxId,
      workerTypesNeeded: first.body.workerTypesNeeded,
      typicalWorkerCount: first.body.typicalWorkerCount,
      averageProjectDuration: first.body.averageProjectDuration,
      billingContactName: first.body.billingContactName,
      billingContactEmail: first.body.billingContactEmail,
      status: 'pending',
      submittedAt: expect.any(String),
      documents: ['insuranceCertificate'],
    });
    expect(items.find((a) => a.id === second.id)?.documents).toEqual([]);
    expect(JSON.stringify(items)).not.toContain('uploads/');
  });

  it('answers a page at a time: at most the limit, and a cursor to the next page until the last', async () => {
    // Prepare
    const made = [await companyApplication(), await companyApplication(), await companyApplication()];

    // Act
    const { items, pages } = await everyPage<{ id: string }>(handler, 'list-company-applications', 2);

    // Assess
    expect(pages.slice(0, -1).every((size) => size === 2)).toBe(true);
    expect(pages.at(-1)).toBeLessThanOrEqual(2);
    const ids = items.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { id } of made) expect(ids).toContain(id);
  });

  it('refuses a limit out of bounds and a damaged cursor with 400', async () => {
    const at = async (query: Record<string, string>) =>
      invoke(handler, { ...(await asOwner('list-company-applications')), queryStringParameters: query });

    const tooMany = await at({ limit: '101' });
    const damaged = await at({ cursor: 'bm90LWEta2V5' });

    expect(tooMany.status).toBe(400);
    expect(damaged).toMatchObject({ status: 400, body: { message: CURSOR_MESSAGE } });
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('list-company-applications'))).status).toBe(401);
  });
});
