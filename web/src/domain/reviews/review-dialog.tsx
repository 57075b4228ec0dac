import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { createPortal } from 'react-dom';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { DEFAULT_RATING, type WorkerReviewInput } from '../../../../shared/schemas/review';
import { ApiError, api } from '../../lib/api';
import { useFormErrors } from '../../lib/use-form-errors';
import { Button } from '../../components/ui/button';
import { ModalDialog } from '../../components/ui/modal-dialog';
import { toast } from '../../components/ui/toast-store';
import { CountedTextarea } from './counted-textarea';
import { LOW_RATING_NOTICE, isLowRating, isStaleReviewTarget, placeFields, reviewFailureText, serverMessage, workerNameOf } from './review';
import { invalidReviewToast, reviewFieldOrder, validateReview } from './review-form';
import { StarRating } from './star-rating';
import { FormAlert } from '../../components/ui/form-alert';
import { queryKeys } from '../../lib/query-keys';

export type ReviewTarget = Pick<ServiceRequestView, 'id' | 'worker' | 'service'>;

/**
 * The review of a completed job: stars from 5 down, 10 to 500 characters, a notice
 * when the rating is low. Rendered into <body> so the card's live region, which it is opened from,
 * does not read out every keystroke of the counter.
 */
export function ReviewDialog({ request, onClose, onReviewed }: { request: ReviewTarget; onClose: () => void; onReviewed?: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const name = workerNameOf(request);
  const [rating, setRating] = useState<number>(DEFAULT_RATING);
  const [reviewText, setReviewText] = useState('');
  const { errors, show, clear, refFor } = useFormErrors(reviewFieldOrder);

  const send = useMutation({
    mutationFn: (input: WorkerReviewInput) => api('POST /api/worker-reviews', { body: input }),
    onSuccess: (result, input) => {
      const given = result?.rating ?? input.rating;
      // The card shows the rating at once rather than after the next poll.
      queryClient.setQueryData<ServiceRequestView[]>(queryKeys.customerRequests, (list) =>
        list?.map((item) => (item.id === request.id ? { ...item, rating: given } : item)),
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.customerRequests });
      void queryClient.invalidateQueries({ queryKey: queryKeys.workerListings });
      toast({ title: 'Thank you for your review', description: `Your ${given}-star rating of ${name} is saved.` });
      onReviewed?.();
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) show(placeFields(error.fields, reviewFieldOrder));
      else if (isStaleReviewTarget(error)) {
        // Reviewed already (perhaps in another tab) or not this customer's: the list catches up.
        show({ _: serverMessage(error) ?? 'This job can no longer be reviewed.' });
        void queryClient.invalidateQueries({ queryKey: queryKeys.customerRequests });
      }
      toast({ title: 'Error submitting review', description: reviewFailureText(error), variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (send.isPending) return;
    const result = validateReview({ rating, reviewText }, request);
    if (!result.ok) {
      show(result.errors);
      const warning = invalidReviewToast(result.errors);
      if (warning) toast({ ...warning, variant: 'destructive' });
      return;
    }
    clear();
    send.mutate(result.input);
  };

  const sending = send.isPending;

  return createPortal(
    <ModalDialog title={`Review ${name}`} description={`How did the ${request.service} job go? Your rating counts toward ${name}'s rating.`} onClose={onClose}>
      <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={sending}>
        <p role="status" className="sr-only">
          {sending ? 'Sending your review...' : ''}
        </p>
        <FormAlert message={errors._} />
        <StarRating id={`${id}-rating`} value={rating} onChange={setRating} error={errors.rating} tabStopRef={refFor('rating')} required />
        <div aria-live="polite">
          {isLowRating(rating) ? (
            <p className="rounded-lg bg-orange-950/70 p-3 text-sm font-medium text-orange-100 ring-1 ring-orange-400/40">{LOW_RATING_NOTICE}</p>
          ) : null}
        </div>
        <CountedTextarea
          id={`${id}-text`}
          label="Your review"
          hint="What went well, what could be better: at least 10 characters."
          value={reviewText}
          onChange={setReviewText}
          error={errors.reviewText}
          textareaRef={refFor('reviewText')}
        />
        <div className="flex flex-wrap justify-end gap-3 pt-1">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={sending}>
            Submit Review
          </Button>
        </div>
      </form>
    </ModalDialog>,
    document.body,
  );
}
