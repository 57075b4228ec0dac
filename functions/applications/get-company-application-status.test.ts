import { describe, expect, it } from 'vitest';
import { handler } from './get-company-application-status';
import { handler as approve } from './approve-company-application';
import { newId } from '../common/ids';
import { asOwner, pendingCompanyApplication } from '../testing/applications';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { handler as reject } from './reject-company-application';

const status = (id: string) => invoke(handler, withPath(sampleEvent('get-company-application-status'), { id }));

describe('GET /api/company-applications/{id}', () => {
  it('shows a pending application as the company may see it: no contact details, tax id or documents', async () => {
    // Prepare
    const { id, body } = await pendingCompanyApplication({ einTaxId: '12-3456789' });

    // Act
    const res = await status(id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      companyName: body.companyName,
      submittedAt: expect.any(String),
      status: 'pending',
      reviewNotes: null,
      reviewedAt: null,
    });
    const shown = JSON.stringify(res.body);
    for (const hidden of [body.emailAddress, body.phoneNumber, body.companyAddress, '12-3456789', body.contactPersonName]) {
      expect(shown).not.toContain(hidden);
    }
  });

  it('shows a rejection with the owner’s notes', async () => {
    const { id } = await pendingCompanyApplication();
    await invoke(reject, withBody(await asOwner('reject-company-application', { id }), { notes: 'No current licence.' }));

    const res = await status(id);

    expect(res.body).toMatchObject({ status: 'rejected', reviewNotes: 'No current licence.', reviewedAt: expect.any(String) });
  });

  it('shows an approval without the owner’s own notes', async () => {
    const { id } = await pendingCompanyApplication();
    await invoke(approve, withBody(await asOwner('approve-company-application', { id }), { notes: 'Owner-only remark.' }));

    const res = await status(id);

    expect(res.body).toMatchObject({ status: 'approved', reviewNotes: null, reviewedAt: expect.any(String) });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const [unknown, malformed] = await Promise.all([status(newId()), status('not-an-id')]);

    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('No company application with this id.');
    expect(malformed.status).toBe(404);
  });
});
