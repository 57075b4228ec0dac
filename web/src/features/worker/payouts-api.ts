import { useMutation, useQuery } from '@tanstack/react-query';
import type { PayoutOnboardingLink, PayoutStatusView } from '../../../../shared/schemas/invoice';
import { toast } from '../../components/ui/toast-store';
import { errorMessage } from '../../lib/api';
import { isUnauthorized, workerCall } from './worker-api';

/** The worker's payout calls: their Stripe Connect standing and the onboarding link. */
export const payoutKeys = {
  status: ['/api/workers/payouts'] as const,
};

const payoutUrls = {
  status: '/api/workers/payouts',
  onboard: '/api/workers/payouts/onboard',
};

export function usePayoutStatus(enabled = true) {
  return useQuery<PayoutStatusView>({
    queryKey: payoutKeys.status,
    queryFn: ({ signal }) => workerCall<PayoutStatusView>('GET', payoutUrls.status, undefined, signal),
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
    mutationFn: () => workerCall<PayoutOnboardingLink>('POST', payoutUrls.onboard),
    onSuccess: ({ url }) => {
      window.location.assign(url);
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      toast({ title: 'Could not start payout setup', description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
    },
  });
}
