import { useMutation, useQuery } from '@tanstack/react-query';
import type { PayoutStatusView } from '../../../../shared/schemas/invoice';
import { toast } from '../../components/ui/toast-store';
import { errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { isUnauthorized, workerCall, workerGet } from './worker-api';

/** The worker's payout calls: their Stripe Connect standing and the onboarding link. */

export function usePayoutStatus(enabled = true) {
  return useQuery<PayoutStatusView>({
    queryKey: queryKeys.payoutStatus,
    queryFn: ({ signal }) => workerGet(queryKeys.payoutStatus, signal),
    enabled,
    staleTime: 0,
  });
}

/**
 * POST /api/workers/payouts/onboard, then off to Stripe's hosted onboarding. The link is single
 * use and short-lived, so it is asked for at the click, never ahead of time.
 */
export function useStartPayoutOnboarding() {
  return useMutation({
    mutationFn: () => workerCall('POST /api/workers/payouts/onboard'),
    onSuccess: ({ url }) => {
      window.location.assign(url);
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      toast({ title: 'Could not start payout setup', description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
    },
  });
}
