import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { InvoiceView } from '../../../../shared/schemas/invoice';
import { api } from '../../lib/api';
import { toast } from '../../components/ui/toast-store';
import { checkoutUrlOf, isStale, paymentFailureText, verificationFailureText } from './invoice-rules';
import { queryKeys } from '../../lib/query-keys';

/**
 * POST /api/verify-work/{id} (no body): the customer confirms the invoice's work and charges, which
 * payment needs. The invoice, the list and the request cards all show it at once.
 */
export function useVerifyInvoiceWork() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invoiceId: string) => api('POST /api/verify-work/{id}', { params: { id: invoiceId } }),
    onSuccess: (invoice, invoiceId) => {
      if (invoice) queryClient.setQueryData(queryKeys.invoice(invoiceId), invoice);
      void queryClient.invalidateQueries({ queryKey: queryKeys.invoices });
      void queryClient.invalidateQueries({ queryKey: queryKeys.customerRequests });
      toast({ title: 'Work Verified', description: 'Thank you for confirming the work. You can now pay the invoice.' });
    },
    onError: (error) => {
      // Verified or paid elsewhere (another tab), or no longer there: what the screen shows catches up.
      if (isStale(error)) void queryClient.invalidateQueries({ queryKey: queryKeys.invoices });
      toast({ title: 'Verification Failed', description: verificationFailureText(error), variant: 'destructive' });
    },
  });
}

/**
 * Starts a payment on the card provider's checkout page: `createUrl` makes the session (an invoice's
 * or a crew bill's) and the browser goes there. `creating` stays true until the page is gone, so the
 * button cannot start a second session in the meantime; `staleKey` is asked again when the server
 * says what the screen shows is out of date (paid in another tab, say).
 */
export function useCheckoutRedirect<T>(createUrl: (input: T) => Promise<string>, staleKey: QueryKey) {
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);

  // Back from the checkout page, the browser can restore this page as it was left: "Creating
  // Payment..." would then stick on a button nobody can press.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const checkout = useMutation({
    mutationFn: createUrl,
    onSuccess: (url) => {
      setLeaving(true);
      window.location.assign(url);
    },
    onError: (error) => {
      if (isStale(error)) void queryClient.invalidateQueries({ queryKey: staleKey });
      toast({ title: 'Payment Error', description: paymentFailureText(error), variant: 'destructive' });
    },
  });

  return { pay: checkout.mutate, creating: checkout.isPending || leaving };
}

/** POST /api/create-checkout-session with the invoice view's own fields, then off to pay. */
export function usePayInvoice() {
  return useCheckoutRedirect(
    async (invoice: Pick<InvoiceView, 'id' | 'workerStripeAccountId'>) =>
      checkoutUrlOf(
        await api('POST /api/create-checkout-session', {
          body: { invoiceId: invoice.id, workerStripeAccountId: invoice.workerStripeAccountId },
        }),
      ),
    queryKeys.invoices,
  );
}
