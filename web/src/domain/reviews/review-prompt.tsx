import { Star } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { paths } from '../../lib/paths';
import { Button } from '../../components/ui/button';
import { reviewPromptOf } from './review';

// Loaded when first opened: the form and its stars are not needed to show the list it sits in.
const ReviewDialog = lazy(() => import('./review-dialog').then((m) => ({ default: m.ReviewDialog })));

/**
 * A completed request's review part: "Review <name>" until the customer has rated it, and once the
 * job is paid also "Rate your pro", the rating page of its own; then the rating they gave. Nothing
 * for a request that is not completed.
 */
export function ReviewPrompt({ request }: { request: Pick<ServiceRequestView, 'id' | 'status' | 'worker' | 'service' | 'rating' | 'invoice'> }) {
  const prompt = reviewPromptOf(request);
  const [open, setOpen] = useState(false);
  const [reviewed, setReviewed] = useState(false);
  const rated = useRef<HTMLParagraphElement>(null);

  // The button that opened the dialog is gone once the review is in (or the list says it already
  // was, while the dialog was open): focus lands on what replaced it.
  useEffect(() => {
    if (prompt.kind === 'rated' && (reviewed || open)) rated.current?.focus();
  }, [reviewed, open, prompt.kind]);

  if (prompt.kind === 'none') return null;
  if (prompt.kind === 'rated') {
    return (
      <p ref={rated} tabIndex={-1} data-testid="review-given" className="flex items-center gap-2 text-sm font-medium text-amber-100 focus:outline-none">
        <Star aria-hidden="true" className="size-4 shrink-0 fill-amber-400 text-amber-400" />
        {prompt.text}
      </p>
    );
  }
  const paid = request.invoice?.paymentStatus === 'paid';
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <Button size="sm" onClick={() => setOpen(true)}>
          <Star aria-hidden="true" className="size-4" />
          Review {prompt.workerName}
        </Button>
        {paid ? (
          <Link to={paths.rate(request.id)} className="text-sm font-semibold text-amber-300 underline underline-offset-4">
            Rate your pro
          </Link>
        ) : null}
      </div>
      {open ? (
        <Suspense fallback={null}>
          <ReviewDialog request={request} onClose={() => setOpen(false)} onReviewed={() => setReviewed(true)} />
        </Suspense>
      ) : null}
    </>
  );
}
