import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ThumbsDown, ThumbsUp } from 'lucide-react';
import { useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { NOTES_REQUIRED, type ClientVerificationInput } from '../../../../shared/schemas/invoice';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { ApiError, api } from '../../lib/api';
import { useFormErrors } from '../../lib/use-form-errors';
import { CountedTextarea } from '../reviews/counted-textarea';
import { placeFields, workerNameOf } from '../reviews/review';
import { Button } from '../../components/ui/button';
import { ModalDialog } from '../../components/ui/modal-dialog';
import { toast } from '../../components/ui/toast-store';
import { VERIFY_FAILED, isStale, verificationFailureText } from './invoice-rules';
import { hoursPhrase } from '../../lib/money';
import {
  VERIFICATION_NOTES_MAX,
  afterDecision,
  notesErrorShown,
  notesToast,
  validateVerification,
  verificationDoneToast,
  verificationFieldOrder,
  type VerificationDecision,
  type VerificationTarget,
} from './verification';
import { FormAlert } from '../../components/ui/form-alert';
import { queryKeys } from '../../lib/query-keys';

/**
 * The customer approves the finished work (the worker may then invoice it) or rejects it with notes
 * (the job reopens for the worker). `failureText` is the screen's fallback line for a failure the
 * server did not explain (the client dashboard words it differently from the home page). For a
 * request for several pros (`crewSize`), the one decision is for every pro's work, and it says so.
 */
export function WorkVerificationDialog({
  request,
  onClose,
  onDecided,
  failureText = VERIFY_FAILED,
  crewSize,
}: {
  request: VerificationTarget;
  onClose: () => void;
  onDecided?: (decision: VerificationDecision) => void;
  failureText?: string;
  crewSize?: number;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const crew = crewSize !== undefined && crewSize > 1;
  const name = workerNameOf(request);
  const [notes, setNotes] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const { errors, show, clear, refFor } = useFormErrors(verificationFieldOrder);

  const send = useMutation({
    mutationFn: (input: ClientVerificationInput) => api('POST /api/client-verification', { body: input }),
    onSuccess: (_result, input) => {
      // The card stops asking at once rather than at the next poll.
      queryClient.setQueryData<ServiceRequestView[]>(queryKeys.customerRequests, (list) => afterDecision(list, request.id, input));
      void queryClient.invalidateQueries({ queryKey: queryKeys.customerRequests });
      void queryClient.invalidateQueries({ queryKey: queryKeys.invoices });
      toast({ ...verificationDoneToast(input.verificationStatus, name, crew) });
      onDecided?.(input.verificationStatus);
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) {
        const placed = placeFields(error.fields, verificationFieldOrder);
        show(placed);
        if (error.fields.verificationNotes === NOTES_REQUIRED) {
          const notesWarning = notesToast(placed);
          if (notesWarning) toast({ ...notesWarning, variant: 'destructive' });
          return;
        }
      } else if (isStale(error)) {
        // Decided already (another tab) or no longer theirs: say so here, and the card catches up.
        setRefusal(verificationFailureText(error, 'This work can no longer be verified.'));
        void queryClient.invalidateQueries({ queryKey: queryKeys.customerRequests });
      }
      toast({ title: 'Verification Failed', description: verificationFailureText(error, failureText), variant: 'destructive' });
    },
  });

  const decide = (decision: VerificationDecision) => {
    if (send.isPending) return;
    const result = validateVerification(request, decision, notes);
    if (!result.ok) {
      show(result.errors);
      if (result.toast) toast({ ...result.toast, variant: 'destructive' });
      return;
    }
    clear();
    setRefusal(null);
    send.mutate(result.input);
  };

  const hours = request.verification.workHours;
  const sending = send.isPending;
  const topMessage = refusal ?? errors._;

  return createPortal(
    <ModalDialog
      title="Verify Completed Work"
      description={
        crew
          ? `All ${crewSize} pros finished your ${request.service} job. Approve the work of the whole crew, or reject it and say what still needs doing: every pro goes back to it.`
          : `${name} marked your ${request.service} job complete${hours !== null ? ` after ${hoursPhrase(hours)}` : ''}. Approve the work, or reject it and say what still needs doing.`
      }
      onClose={onClose}
    >
      <form noValidate onSubmit={(event) => event.preventDefault()} className="grid gap-5" aria-busy={sending}>
        <p role="status" className="sr-only">
          {sending ? 'Sending your decision...' : ''}
        </p>
        <FormAlert message={topMessage} />
        <CountedTextarea
          id={`${id}-notes`}
          label="Notes"
          hint="Required when rejecting: what still needs doing. Optional when approving."
          value={notes}
          onChange={setNotes}
          error={notesErrorShown(errors.verificationNotes)}
          textareaRef={refFor('verificationNotes')}
          max={VERIFICATION_NOTES_MAX}
          rows={4}
        />
        <div className="flex flex-wrap justify-end gap-3 pt-1">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="outline" onClick={() => decide('rejected')} disabled={sending}>
            <ThumbsDown aria-hidden="true" className="size-4" />
            Reject Work
          </Button>
          <Button onClick={() => decide('approved')} disabled={sending}>
            <ThumbsUp aria-hidden="true" className="size-4" />
            Approve Work
          </Button>
        </div>
      </form>
    </ModalDialog>,
    document.body,
  );
}
