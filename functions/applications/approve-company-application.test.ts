import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/entities';
import { handler } from './approve-company-application';
import { applicationsRepo } from './data/applications';
import { newId } from '../common/ids';
import { asOwner, pendingCompanyApplication } from '../testing/applications';
import { invoke, withBody } from '../testing/events';
import { handler as reject } from './reject-company-application';
import { handler as sendMail } from '../mail/send-mail';
import { mailsTo, outboxRecord } from '../testing/mail';
import { paths } from '../../web/src/lib/paths';

const approve = async (id: string, body: unknown = {}) => invoke(handler, withBody(await asOwner('approve-company-application', { id }), body));

describe('POST /api/admin/company-applications/{id}/approve', () => {
  it('records the approval with its notes and moves the application to the approved ones the analytics count', async () => {
    // Prepare
    const { id } = await pendingCompanyApplication();

    // Act
    const res = await approve(id, { notes: '  Licence checked.  ' });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, status: 'approved', reviewNotes: 'Licence checked.', reviewedAt: expect.any(String) });
    const stored = await applicationsRepo.findCompanyApplication(id);
    expect(stored).toMatchObject({
      status: 'approved',
      reviewNotes: 'Licence checked.',
      reviewedAt: res.body.reviewedAt,
      approvedAt: res.body.reviewedAt,
      ...keys.applicationsByStatus('company', 'approved', stored!.submittedAt),
    });
    expect((await applicationsRepo.listCompanyApplications('pending')).map((a) => a.id)).not.toContain(id);
    expect((await applicationsRepo.listCompanyApplications('approved')).map((a) => a.id)).toContain(id);
  });

  it('approves without notes', async () => {
    const { id } = await pendingCompanyApplication();

    const res = await approve(id);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'approved', reviewNotes: null });
    expect(await applicationsRepo.findCompanyApplication(id)).not.toHaveProperty('reviewNotes');
  });

  it('refuses a second decision with a 409 that says it was already reviewed', async () => {
    const { id } = await pendingCompanyApplication();
    await approve(id);

    const twice = await approve(id);
    const rejectAfter = await invoke(reject, withBody(await asOwner('reject-company-application', { id }), { notes: 'Changed my mind.' }));

    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This company application has already been reviewed; refresh to see the decision.');
    expect(rejectAfter.status).toBe(409);
    expect(await applicationsRepo.findCompanyApplication(id)).toMatchObject({ status: 'approved' });
  });

  it('of an approval and a rejection racing, exactly one is stored', async () => {
    // Prepare
    const { id } = await pendingCompanyApplication();
    const [approveEvent, rejectEvent] = await Promise.all([
      asOwner('approve-company-application', { id }),
      asOwner('reject-company-application', { id }),
    ]);

    // Act
    const answers = await Promise.all([
      invoke(handler, withBody(approveEvent, {})),
      invoke(reject, withBody(rejectEvent, { notes: 'No licence.' })),
      invoke(handler, withBody(approveEvent, {})),
    ]);

    // Assess
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    const winner = answers.find((a) => a.status === 200)!;
    const stored = await applicationsRepo.findCompanyApplication(id);
    expect(stored?.status).toBe(winner.body.status);
    expect(stored?.reviewedAt).toBe(winner.body.reviewedAt);
  });

  it('answers 404 for an unknown application', async () => {
    const res = await approve(newId());

    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No company application with this id.');
  });

  it('refuses notes past their bound', async () => {
    const { id } = await pendingCompanyApplication();

    const res = await approve(id, { notes: 'x'.repeat(1001) });

    expect(res.status).toBe(400);
    expect((await applicationsRepo.findCompanyApplication(id))?.status).toBe('pending');
  });
});

describe('POST /api/admin/company-applications/{id}/approve: the mail', () => {
  it("mails the contact once that the application is approved, with the owner's notes and the status page, even when decided twice and delivered twice", async () => {
    // Prepare
    const { id, body } = await pendingCompanyApplication();

    // Act
    expect((await approve(id, { notes: 'Licence checked.' })).status).toBe(200);
    expect((await invoke(reject, withBody(await asOwner('reject-company-application', { id }), { notes: 'Changed my mind' }))).status).toBe(409);
    const record = await outboxRecord('company-application-decided', id);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = await mailsTo(body.emailAddress);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`${body.companyName}'s application is approved`);
    expect(mails[0]!.text).toContain(`Hi ${body.contactPersonName},`);
    expect(mails[0]!.text).toContain("Our reviewer's notes: Licence checked.");
    expect(mails[0]!.text).not.toContain('Changed my mind');
    expect(mails[0]!.text).toContain(`See the decision: http://localhost:3000${paths.companyApplicationStatus(id)}`);
  });

  it('says no notes when the owner gave none', async () => {
    const { id, body } = await pendingCompanyApplication();

    await approve(id);
    await sendMail({ Records: [await outboxRecord('company-application-decided', id)] });

    const [mail] = await mailsTo(body.emailAddress);
    expect(mail!.text).toContain('we approved');
    expect(mail!.text).not.toContain('notes');
  });
});
