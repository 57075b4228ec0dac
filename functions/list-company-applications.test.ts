import { describe, expect, it } from 'vitest';
import { freshEmail, asOwner, uploadFile } from './lib/testing/applications';
import { invoke, sampleEvent, withBody } from './lib/testing/events';
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
    const res = await invoke(handler, await asOwner('list-company-applications'));

    // Assess
    expect(res.status).toBe(200);
    const ids = res.body.map((a: { id: string }) => a.id);
    expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(res.body.find((a: { id: string }) => a.id === first.id)).toEqual({
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
    expect(res.body.find((a: { id: string }) => a.id === second.id).documents).toEqual([]);
    expect(JSON.stringify(res.body)).not.toContain('uploads/');
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('list-company-applications'))).status).toBe(401);
  });
});
