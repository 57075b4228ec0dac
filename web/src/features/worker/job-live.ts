import type { JobState } from '../../../../shared/domain/booking-status';
import { heldStates } from '../../../../shared/domain/job-lifecycle';
import type { ToastInput } from '../../components/ui/toast-store';

/** While the worker holds a job and has not finished it, they may share their position with it. */
export function showsLiveSection(state: JobState): boolean {
  return (heldStates as readonly JobState[]).includes(state);
}

/** "1 minute away" and "I just arrived" say something only before the worker is at the door. */
export function statusButtonsShown(state: JobState): boolean {
  return state === 'accepted' || state === 'en_route';
}

/**
 * The toast after "1 minute away": what the customer was told, or that it could not go. ("I just
 * arrived" is Mark Arrived, whose answer from the server says what happened.)
 */
export function oneMinuteAwayToast(sent: boolean): ToastInput {
  if (!sent) {
    return { title: 'Update not sent', description: 'You are offline. Try again once the connection is back.', variant: 'destructive' };
  }
  return { title: 'Customer notified', description: 'They know you are 1 minute away.' };
}
