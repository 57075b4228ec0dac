import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreditCard, ShieldCheck } from 'lucide-react';
import { payButtonLabel } from '../../../../shared/domain/invoice';
import type { CrewBillView } from '../../../../shared/schemas/views/invoice';
import type { CrewMemberView } from '../../../../shared/schemas/views/job';
import { Button } from '../../components/ui/button';
import { LoadError, Loading } from '../../components/ui/load-state';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/toast-store';
import { INVOICE_POLL_MS, checkoutUrlOf, isStale, loadDetail, verificationFailureText } from '../../domain/invoices/invoice-rules';
import { useCheckoutRedirect } from '../../domain/invoices/use-invoice-actions';
import { api } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import { queryKeys } from '../../lib/query-keys';
import { crewBillLines, crewBillStatusText, crewBillStep } from './crew-display';

/**
 * A crew's one bill on the request's page (GET /api/requests/{id}/bill): a line per pro, the card
 * processing of the one charge, the total beside the estimate; verified once (Verify bill), then paid
 * once through the card provider's checkout page (Pay), as a single invoice is. Asked again every
 * few seconds while pros are still to invoice or a payment is being confirmed.
 */
export default function CrewBill({ requestId, crew }: { requestId: string; crew: CrewMemberView[] | null }) {
  const queryClient = useQueryClient();
  const key = queryKeys.requestBill(requestId);
  const bill = useQuery<CrewBillView>({
    queryKey: key,
    refetchInterval: (query) => (query.state.data?.status === 'awaiting' || query.state.data?.status === 'processing' ? INVOICE_POLL_MS : false),
    staleTime: 0,
  });

  const verify = useMutation({
    mutationFn: () => api('POST /api/requests/{id}/bill/verify', { params: { id: requestId } }),
    onSuccess: (verified) => {
      queryClient.setQueryData(key, verified);
      toast({ title: 'Bill verified', description: 'Thank you for checking the bill. You can now pay it.' });
    },
    onError: (error) => {
      if (isStale(error)) void queryClient.invalidateQueries({ queryKey: key });
      toast({ title: 'Verification Failed', description: verificationFailureText(error), variant: 'destructive' });
    },
  });

  const checkout = useCheckoutRedirect<void>(
    async () => checkoutUrlOf(await api('POST /api/requests/{id}/bill/checkout', { params: { id: requestId } })),
    key,
  );

  return (
    <section aria-labelledby="crew-bill-title" className="mt-6 grid gap-3 rounded-xl bg-slate-950/60 p-4" data-testid="crew-bill">
      <h3 id="crew-bill-title" className="text-lg font-semibold text-white">
        Your bill
      </h3>
      {bill.data ? (
        <CrewBillBody
          bill={bill.data}
          crew={crew}
          verifying={verify.isPending}
          creating={checkout.creating}
          onVerify={() => verify.mutate()}
          onPay={() => checkout.pay()}
        />
      ) : bill.isError ? (
        <LoadError message="Could not load the bill" detail={loadDetail(bill.error)} onRetry={() => void bill.refetch()} retrying={bill.isFetching} />
      ) : (
        <Loading label="Loading the bill...">
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-16 w-full" />
        </Loading>
      )}
    </section>
  );
}

function CrewBillBody({
  bill,
  crew,
  verifying,
  creating,
  onVerify,
  onPay,
}: {
  bill: CrewBillView;
  crew: CrewMemberView[] | null;
  verifying: boolean;
  creating: boolean;
  onVerify: () => void;
  onPay: () => void;
}) {
  const step = crewBillStep(bill);
  const lines = crewBillLines(bill, crew);
  const paymentStatus = bill.status === 'paid' ? 'paid' : bill.status === 'processing' ? 'processing' : 'pending';
  return (
    <>
      <p aria-live="polite" className="text-sm text-slate-100" data-testid="crew-bill-status" data-status={bill.status}>
        {crewBillStatusText(bill)}
      </p>
      {bill.awaiting.length > 0 ? (
        <ul className="text-sm text-slate-300">
          {bill.awaiting.map((pro) => (
            <li key={pro.jobId}>{`Pro ${pro.index}${pro.workerName ? ` · ${pro.workerName}` : ''}: invoice not sent yet`}</li>
          ))}
        </ul>
      ) : null}
      <table className="w-full text-sm">
        <caption className="sr-only">The bill, a line per pro</caption>
        <tbody className="divide-y divide-white/10">
          {lines.map((line) => (
            <tr key={line.key} data-testid="crew-bill-line">
              <th scope="row" className="py-2 text-left align-top font-normal">
                <span className="block font-semibold text-white">{line.title}</span>
                <span className="block text-slate-300">{`${line.labour}: ${line.labourAmount}`}</span>
                {line.rush ? <span className="block text-slate-300">{`As-soon-as-possible fee: ${line.rush}`}</span> : null}
                {line.materials ? <span className="block text-slate-300">{`Materials: ${line.materials}`}</span> : null}
              </th>
              <td className="py-2 text-right align-top tabular-nums text-slate-100">{line.total}</td>
            </tr>
          ))}
          <tr>
            <th scope="row" className="py-2 text-left font-normal text-slate-300">
              Card processing
            </th>
            <td className="py-2 text-right tabular-nums">{formatMoney(bill.transactionFee)}</td>
          </tr>
          <tr>
            <th scope="row" className="py-2 text-left text-base font-bold text-white">
              Total
            </th>
            <td className="py-2 text-right text-base font-bold tabular-nums text-white" data-testid="crew-bill-total">
              {formatMoney(bill.totalAmount)}
            </td>
          </tr>
          {bill.estimatedTotal !== null ? (
            <tr>
              <th scope="row" className="py-2 text-left font-normal text-slate-300">
                Estimated when booked
              </th>
              <td className="py-2 text-right tabular-nums text-slate-300">{formatMoney(bill.estimatedTotal)}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <div className="flex flex-wrap justify-end gap-3">
        {step === 'verify' ? (
          <Button onClick={onVerify} disabled={verifying} aria-busy={verifying}>
            <ShieldCheck aria-hidden="true" className="size-4" />
            Verify bill
          </Button>
        ) : null}
        {step === 'pay' || paymentStatus !== 'pending' ? (
          <Button onClick={onPay} disabled={step !== 'pay' || creating} data-testid="pay-bill">
            <CreditCard aria-hidden="true" className="size-4" />
            {payButtonLabel(paymentStatus, bill.totalAmount, creating)}
          </Button>
        ) : null}
      </div>
    </>
  );
}
