import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/entities';
import { applicationsRepo } from './data/applications';
import { newId } from '../common/ids';
import { asOwner, pendingCompanyApplication } from '../testing/applications';
import { invoke, withBody } from '../testing/events';
import { handler } from './reject-company-application';
import { handler as sendMail } from '../mail/send-mail';
import { mailRepo } from '../mail/data/mail';
import { mailsTo, outboxRecord } from '../testing/mail';
import { paths } from '../../web/src/lib/paths';

const reject = async (id: string, body: unknown) => invoke(handler, withBody(await asOwner('reject-company-application', { id }), body));

describe('POST /api/admin/company-applications/{id}/reject', () => {
  it('records the rejection with its notes and moves the application to the rejected ones the analytics count', async () => {
    // Prepare
    const { id } = await pendingCompanyApplication();

    // Act
    const res = await reject(id, { notes: 'We could not verify the licence.' });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, status: 'rejected', reviewNotes: 'We could not verify the licence.', reviewedAt: expect.any(String) });
    const stored = await applicationsRepo.findCompanyApplication(id);
    expect(stored).toMatchObject({
      status: 'rejected',
      reviewNotes: 'We could not verify the licence.',
      ...keys.applicationsByStatus('company', 'rejected', stored!.submittedAt),
    });
    expect(stored).not.toHaveProperty('approvedAt');
    expect((await applicationsRepo.listCompanyApplications('pending')).map((a) => a.id)).not.toContain(id);
    expect((await applicationsRepo.listCompanyApplications('rejected')).map((a) => a.id)).toContain(id);
  });

  it('requires notes, since the company is told why', async () => {
    const { id } = await pendingCompanyApplication();

    const [missing, blank] = [await reject(id, {}), await reject(id, { notes: '   ' })];

    expect(missing.status).toBe(400);
    expect(missing.body.fields).toMatchObject({ notes: 'Tell the company why it is not approved' });
    expect(blank.status).toBe(400);
    expect((await applicationsRepo.findCompanyApplication(id))?.status).toBe('pending');
  });

  it('refuses to reject twice with a 409', async () => {
    const { id } = await pendingCompanyApplication();
    await reject(id, { notes: 'First.' });

    const twice = await reject(id, { notes: 'Second.' });

    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This company application has already been reviewed; refresh to see the decision.');
    expect((await applicationsRepo.findCompanyApplication(id))?.reviewNotes).toBe('First.');
  });

  it('of two racing rejections, exactly one is stored', async () => {
    const { id } = await pendingCompanyApplication();
    const event = await asOwner('reject-company-application', { id });

    const answers = await Promise.all([
      invoke(handler, withBody(event, { notes: 'One.' })),
      invoke(handler, withBody(event, { notes: 'Two.' })),
    ]);

    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await applicationsRepo.findCompanyApplication(id))?.reviewNotes).toBe(winner.body.reviewNotes);
  });

  it('answers 404 for an unknown application', async () => {
    expect((await reject(newId(), { notes: 'Nobody.' })).status).toBe(404);
  });
});

describe('POST /api/admin/company-applications/{id}/reject: the mail', () => {
  it("mails the contact once that the application is not approved, with the owner's notes and the status page, even when rejected twice and delivered twice", async () => {
    // Prepare
    const { id, body } = await pendingCompanyApplication();
    const notes = 'We could not verify the insurance certificate.';

    // Act
    expect((await reject(id, { notes })).status).toBe(200);
    expect((await reject(id, { notes: 'Again' })).status).toBe(409);
    const record = await outboxRecord('company-application-decided', id);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = await mailsTo(body.emailAddress);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`About ${body.companyName}'s application`);
    expect(mails[0]!.text).toContain('we are not able to approve it at this time');
    expect(mails[0]!.text).toContain(`Our reviewer's notes: ${notes}`);
    expect(mails[0]!.text).toContain(`See the decision: http://localhost:3000${paths.companyApplicationStatus(id)}`);
  });

  it('writes no mail for a rejection refused for want of notes', async () => {
    const { id } = await pendingCompanyApplication();

    expect((await reject(id, {})).status).toBe(400);

    expect(await mailRepo.find('company-application-decided', id)).toBeUndefined();
  });
});
