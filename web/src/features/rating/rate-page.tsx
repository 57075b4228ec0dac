import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { requestNumber } from '../../../../shared/domain/requests';
import type { JobRatingInput } from '../../../../shared/schemas/review';
import { PageHeader } from '../../components/layout/page-header';
import { CountedTextarea } from '../../domain/reviews/counted-textarea';
import { placeFields } from '../../domain/reviews/review';
import { StarRating } from '../../domain/reviews/star-rating';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api } from '../../lib/api';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useFormErrors } from '../../lib/use-form-errors';
import { RATE_REDIRECT_MS, rateFailureOf, rateFieldOrder, ratingErrorShown, validateRating } from './rate-form';
import { FormAlert } from '../../components/ui/form-alert';
import { queryKeys } from '../../lib/query-keys';

/** /rate/:jobId: stars (a choice is required, no default) and an optional comment for one completed job. */
export default function RatePage() {
  useDocumentTitle('Rate Your Service');
  const { jobId = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const { errors, show, clear, refFor } = useFormErrors(rateFieldOrder);
  const thanks = useRef<HTMLHeadingElement>(null);

  const send = useMutation({
    mutationFn: (input: JobRatingInput) => api('POST /api/jobs/{id}/rating', { params: { id: jobId }, body: input }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.customerRequests });
      void queryClient.invalidateQueries({ queryKey: queryKeys.workerListings });
    },
    onError: (error) => {
      const failure = rateFailureOf(error);
      if (error instanceof ApiError && error.status === 400) show(placeFields(error.fields, rateFieldOrder));
      setRefusal(failure.onPage);
      toast({ title: 'Failed to submit rating', description: failure.description, variant: 'destructive' });
    },
  });
  const done = send.isSuccess;

  useEffect(() => {
    if (!done) return;
    // The form that held focus is gone; the thank-you takes it, then the page moves on.
    thanks.current?.focus();
    const timer = setTimeout(() => void navigate(paths.home), RATE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (send.isPending) return;
    const result = validateRating({ rating, comment });
    if (!result.ok) {
      show(result.errors);
      if (result.toast) toast({ ...result.toast, variant: 'destructive' });
      return;
    }
    clear();
    setRefusal(null);
    send.mutate(result.input);
  };

  const sending = send.isPending;

  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <PageHeader title="Rate Your Service" subtitle={`How did the job go? Your rating is for request ${requestNumber(jobId)}.`} />
      {/* Present from the start, so the thank-you is read out when it appears. */}
      <div role="status">
        {done ? (
          <Card className="grid justify-items-center gap-3 text-center">
            <CircleCheck aria-hidden="true" className="size-12 text-green-300" />
            <h2 ref={thanks} tabIndex={-1} className="text-2xl font-bold text-white focus:outline-none">
              Thank You!
            </h2>
            <p className="text-slate-200">Your feedback helps us keep the quality of our professionals high.</p>
            <p className="text-sm text-slate-300">Taking you to the home page in a few seconds...</p>
            <Link to={paths.home} className="text-sm font-semibold text-amber-300 underline underline-offset-4">
              Go to the home page now
            </Link>
          </Card>
        ) : null}
      </div>
      {done ? null : (
        <Card>
          <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={sending}>
            <p role="status" className="sr-only">
              {sending ? 'Sending your rating...' : ''}
            </p>
            <FormAlert message={refusal ?? errors._} />
            <StarRating
              id="rate-rating"
              value={rating}
              onChange={setRating}
              error={ratingErrorShown(errors.rating, rating)}
              tabStopRef={refFor('rating')}
              required
            />
            <CountedTextarea
              id="rate-comment"
              label="Comment (optional)"
              hint="Anything you want us to know about the work."
              value={comment}
              onChange={setComment}
              error={errors.comment}
              textareaRef={refFor('comment')}
              rows={4}
            />
            <Button type="submit" size="lg" disabled={sending}>
              Submit Rating
            </Button>
          </form>
        </Card>
      )}
    </div>
  );
}
