import type { PayoutStatusView } from '../../../../shared/schemas/invoice';
import type { ToastInput } from '../../components/ui/toast-store';

/**
 * How the worker's screens word their payout standing (GET /api/workers/payouts) and the way back
 * from Stripe Connect onboarding (/worker/earnings?payouts=return|refresh).
 */
export type PayoutSetupStatus = PayoutStatusView['status'];

const statusLabels: Record<PayoutSetupStatus, string> = {
  not_started: 'Not set up',
  pending: 'Onboarding not finished',
  enabled: 'Payouts enabled',
};

export function payoutStatusLabel(status: PayoutSetupStatus): string {
  return statusLabels[status] ?? statusLabels.not_started;
}

/** The onboarding button's words; none once payouts flow, as there is nothing left to set up. */
export function payoutButtonLabel(status: PayoutSetupStatus): 'Set up payouts' | 'Finish setting up payouts' | null {
  if (status === 'enabled') return null;
  return status === 'pending' ? 'Finish setting up payouts' : 'Set up payouts';
}

/** Stripe sends the worker back with ?payouts=return (done or gave up) or ?payouts=refresh (the link expired). */
export type PayoutReturn = 'return' | 'refresh';

export function payoutReturnOf(search: URLSearchParams | string): PayoutReturn | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const value = params.get('payouts');
  return value === 'return' || value === 'refresh' ? value : null;
}

/** The address without the payouts parameter, so a reload does not repeat the toast. */
export function withoutPayoutReturn(search: URLSearchParams | string): URLSearchParams {
  const params = new URLSearchParams(search);
  params.delete('payouts');
  return params;
}

/**
 * What to say once the status is read again after Stripe sent the worker back. "Return" does not
 * mean finished (the worker may have left the form), so only an enabled account earns the success.
 */
export function payoutReturnToast(kind: PayoutReturn, status: PayoutSetupStatus): ToastInput {
  if (kind === 'refresh') {
    return { title: 'Setup link expired', description: 'Start again to finish setting up payouts.' };
  }
  if (status === 'enabled') {
    return { title: 'Payouts set up', description: 'Your earnings now go to your connected account.' };
  }
  return { title: 'Payout setup not finished', description: 'Stripe still needs some details. Finish setting up payouts to receive your earnings.' };
}

/** The held money, when there is any: "$120.00 from 2 paid jobs is held …". */
export function heldText(amount: string, count: number, status: PayoutSetupStatus): string | null {
  if (count <= 0) return null;
  const jobs = count === 1 ? '1 paid job' : `${count} paid jobs`;
  return status === 'enabled'
    ? `${amount} from ${jobs} is on its way to your connected account.`
    : `${amount} from ${jobs} is held until you finish setting up payouts.`;
}
