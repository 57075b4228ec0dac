import { ClipboardCheck, FileText, Hourglass, RotateCcw } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { VERIFY_FAILED, requestInvoicePromptOf } from './invoice-rules';
import { formatMoney, hoursPhrase } from '../../lib/money';
import { paths } from '../../lib/paths';

// Each dialog is loaded when first opened: neither is needed to show the request's card.
const InvoiceDialog = lazy(() => import('./invoice-dialog').then((m) => ({ default: m.InvoiceDialog })));
const WorkVerificationDialog = lazy(() => import('./work-verification-dialog').then((m) => ({ default: m.WorkVerificationDialog })));

type ActionFields = 'id' | 'status' | 'worker' | 'service' | 'verification' | 'invoice' | 'crew' | 'workerCount';

/**
 * A customer's request card, verifying and paying part (home page and the client dashboard's hires):
 * "Please verify the completed work" with the recorded hours while the worker waits for a decision;
 * then the invoice with its payment label and View & Pay Invoice. Nothing while none applies. A
 * request for several pros is verified once and paid as one bill on its own page: the card sends
 * the customer there rather than offering its first pro's work or invoice as if it were the whole.
 */
export function RequestInvoiceActions({
  request,
  verificationFailureText = VERIFY_FAILED,
}: {
  request: Pick<ServiceRequestView, ActionFields>;
  verificationFailureText?: string;
}) {
  const prompt = requestInvoicePromptOf(request);
  const [verifying, setVerifying] = useState(false);
  const [viewing, setViewing] = useState(false);
  const [decided, setDecided] = useState(false);
  const outcome = useRef<HTMLParagraphElement>(null);

  // The Verify Work button is gone once the decision is in: focus goes to the line that replaced it
  // rather than falling back to the top of the page. The card's data can arrive a render after the
  // dialog closes, so this waits until the prompt has actually gone.
  const asking = prompt.verify !== null;
  useEffect(() => {
    if (!decided || asking) return;
    outcome.current?.focus();
    setDecided(false);
  }, [decided, asking]);

  const outcomeProps = { ref: outcome, tabIndex: -1, className: 'flex items-start gap-2 text-sm text-slate-200 focus:outline-none' };

  if (request.crew) {
    if (!prompt.verify && !prompt.awaitingInvoice && !prompt.rejected && !prompt.invoice) return null;
    return (
      <p className="flex flex-wrap items-start gap-2 text-sm text-slate-200">
        <FileText aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
        <span>{`A request for ${request.workerCount} pros: verify their work and pay one bill on its page.`}</span>
        <Link to={paths.track(request.id)} className="font-medium text-amber-300 underline-offset-4 hover:underline">
          Open the request's page
        </Link>
      </p>
    );
  }

  return (
    <>
      {prompt.verify ? (
        <div className="grid gap-2 rounded-xl bg-amber-950/50 p-3 ring-1 ring-amber-400/40">
          <p className="flex items-center gap-2 font-semibold text-amber-100">
            <ClipboardCheck aria-hidden="true" className="size-5 shrink-0" />
            Please verify the completed work
          </p>
          {prompt.verify.workHours !== null ? (
            <p className="text-sm text-slate-200">Your professional recorded {hoursPhrase(prompt.verify.workHours)} of work.</p>
          ) : null}
          <Button size="sm" className="justify-self-start" onClick={() => setVerifying(true)}>
            Verify Work
          </Button>
        </div>
      ) : null}
      {prompt.awaitingInvoice ? (
        <p {...outcomeProps}>
          <Hourglass aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
          Work approved. Your professional is preparing the invoice.
        </p>
      ) : null}
      {prompt.rejected ? (
        <p {...outcomeProps}>
          <RotateCcw aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-orange-300" />
          <span>
            You asked for changes{prompt.rejected.notes ? <>: “{prompt.rejected.notes}”</> : null}. Your professional is back on the job.
          </span>
        </p>
      ) : null}
      {prompt.invoice ? (
        <div className="grid gap-2">
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-200">
            <FileText aria-hidden="true" className="size-4 shrink-0 text-amber-300" />
            <span>
              Invoice <span className="font-mono font-semibold text-white">#{prompt.invoice.number}</span> ·{' '}
              <span className="font-semibold text-white">{formatMoney(prompt.invoice.total)}</span>
            </span>
            <Badge tone={prompt.invoice.tone}>{prompt.invoice.label}</Badge>
          </p>
          <Button size="sm" className="justify-self-start" onClick={() => setViewing(true)}>
            View &amp; Pay Invoice
          </Button>
        </div>
      ) : null}
      <Suspense fallback={null}>
        {verifying ? (
          <WorkVerificationDialog
            request={request}
            failureText={verificationFailureText}
            onDecided={() => setDecided(true)}
            onClose={() => setVerifying(false)}
          />
        ) : null}
        {viewing && prompt.invoice ? <InvoiceDialog invoiceId={prompt.invoice.id} onClose={() => setViewing(false)} /> : null}
      </Suspense>
    </>
  );
}
