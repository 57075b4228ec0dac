import { Banknote } from 'lucide-react';
import { Button, type ButtonSize, type ButtonVariant } from '../../components/ui/button';
import { payoutButtonLabel, type PayoutSetupStatus } from './payouts';
import { usePayoutStatus, useStartPayoutOnboarding } from './payouts-api';
import { formatMoney } from '../../lib/money';

/** Starts (or resumes) Stripe Connect onboarding; nothing to show once payouts are enabled. */
export function PayoutSetupButton({ status, variant = 'primary', size = 'md' }: { status: PayoutSetupStatus; variant?: ButtonVariant; size?: ButtonSize }) {
  const start = useStartPayoutOnboarding();
  const label = payoutButtonLabel(status);
  if (!label) return null;
  // Still disabled after success: the browser is on its way to Stripe and a second click would mint a second link.
  const leaving = start.isPending || start.isSuccess;
  return (
    <Button variant={variant} size={size} onClick={() => start.mutate()} disabled={leaving} aria-busy={leaving || undefined}>
      <Banknote aria-hidden="true" className="size-4" />
      {label}
    </Button>
  );
}

/**
 * The Jobs tab's reminder while payouts are not enabled. Quiet while loading or failing: the
 * earnings page says the full story, and offers and jobs matter more here.
 */
export function PayoutNotice() {
  const payouts = usePayoutStatus();
  if (!payouts.data || payouts.data.status === 'enabled') return null;
  const { status, heldCents, heldCount } = payouts.data;
  return (
    <section aria-labelledby="payout-notice-heading" className="flex flex-wrap items-center justify-between gap-4 rounded-2xl border border-amber-300/40 bg-amber-950/60 p-5 text-amber-50">
      <div>
        <h2 id="payout-notice-heading" className="font-semibold text-white">
          Set up payouts to receive your earnings
        </h2>
        <p className="mt-1 text-sm text-amber-100">
          {heldCount > 0
            ? `${formatMoney(heldCents)} from customers is waiting for you.`
            : 'Customers pay by card; your share goes to your Stripe connected account.'}
        </p>
      </div>
      <PayoutSetupButton status={status} size="sm" />
    </section>
  );
}
