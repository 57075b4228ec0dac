import { rooms } from '../../shared/realtime';
import type { WorkerItem } from '../workers/data/workers';
import { notify, publish } from '../realtime/realtime';

/**
 * The owner's decision told to the applicant: `worker:status` to their user channel, which an open
 * review screen listens to (it turns into the dashboard, or says "Not approved", without a reload),
 * and a notification kept for their bell. Approved before making an account, the notification
 * waits for them; nobody listens yet.
 */
export async function applicationDecided(worker: Pick<WorkerItem, 'id' | 'status'>): Promise<void> {
  const approved = worker.status === 'active';
  await publish(rooms.user('worker', worker.id), 'worker:status', { workerId: worker.id, status: worker.status });
  await notify('worker', worker.id, {
    type: approved ? 'application_approved' : 'application_rejected',
    title: approved ? 'Application approved' : 'Application not approved',
    message: approved
      ? 'Welcome aboard! Your dashboard is open: go on call to start receiving job offers.'
      : 'Your application was not approved. Your account shows the owner’s notes.',
    priority: 'high',
    actionUrl: '/worker/dashboard',
    jobId: null,
  });
}
