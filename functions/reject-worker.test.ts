import { describe, expect, it } from 'vitest';
import { keys } from '../shared/table';
import { handler as approveWorker } from './approve-worker';
import { applicationsRepo } from './lib/data/applications';
import { newId } from './lib/ids';
import { asOwner, pendingApplication, workerApplicationBody } from './lib/testing/applications';
import { invoke, sampleEvent, withBody } from './lib/testing/events';
import { handler } from './reject-worker';
import { handler as submitWorkerApplication } from './submit-worker-application';

const reject = async (id: string) => invoke(handler, await asOwner('reject-worker', { id }));

describe('POST /api/admin/workers/{id}/reject', () => {
  it('records the rejection and takes the application off the pending list', async () => {
    // Prepare
    const { id } = await pendingApplication();

    // Act
    const res = await reject(id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Worker Rejected' });
    const application = await applicationsRepo.findWorkerApplication(id);
    expect(application).toMatchObject({ status: 'rejected', ...keys.applicationsByStatus('worker', 'rejected', application!.submittedAt) });
    expect(Date.parse(application!.reviewedAt!)).not.toBeNaN();
    expect(application).not.toHaveProperty('approvedAt');
    expect((await applicationsRepo.listWorkerApplications('pending')).map((a) => a.id)).not.toContain(id);
  });

  it('keeps the email claimed, so the same email cannot simply reapply', async () => {
    const { id, body } = await pendingApplication();
    await reject(id);

    const again = await invoke(
      submitWorkerApplication,
      withBody(sampleEvent('submit-worker-application'), await workerApplicationBody({ emailAddress: body.emailAddress })),
    );

    expect(again.status).toBe(409);
  });

  it('refuses to reject an application twice or after approval', async () => {
    const [a, b] = await Promise.all([pendingApplication(), pendingApplication()]);
    await reject(a.id);
    await invoke(approveWorker, await asOwner('approve-worker', { id: b.id }));

    const twice = await reject(a.id);
    const afterApproval = await reject(b.id);

    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This application has already been reviewed.');
    expect(afterApproval.status).toBe(409);
    expect((await applicationsRepo.findWorkerApplication(b.id))?.status).toBe('approved');
  });

  it('answers 404 for an unknown application', async () => {
    expect((await reject(newId())).status).toBe(404);
  });
});
