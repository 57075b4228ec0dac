import { NOTES_REQUIRED, clientVerificationSchema, type ClientVerificationInput } from '../../../../shared/schemas/invoice';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { fieldErrors } from '../../../../shared/validation';
import { placeFields } from '../reviews/review';

/** The most the server keeps of the notes (clientVerificationSchema); a test holds the two together. */
export const VERIFICATION_NOTES_MAX = 1000;

export const verificationFieldOrder = ['verificationNotes'] as const;

export type VerificationDecision = 'approved' | 'rejected';

export type VerificationTarget = Pick<ServiceRequestView, 'id' | 'worker' | 'service' | 'verification'>;

export type VerificationFormResult =
  | { ok: true; input: ClientVerificationInput }
  | { ok: false; errors: Record<string, string>; toast: { title: string; description: string } | null };

/**
 * The body of POST /api/client-verification, checked with the server's schema: rejecting needs
 * notes, approving takes them when given. Blank notes go as null.
 */
export function validateVerification(request: Pick<VerificationTarget, 'id' | 'worker'>, decision: VerificationDecision, notes: string): VerificationFormResult {
  const candidate = {
    serviceRequestId: request.id,
    workerId: request.worker?.id ?? null,
    verificationType: 'work_verification' as const,
    verificationStatus: decision,
    verificationNotes: notes.trim() ? notes.trim() : null,
  };
  const parsed = clientVerificationSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, input: parsed.data };
  const errors = placeFields(fieldErrors(parsed.error), verificationFieldOrder);
  return { ok: false, errors, toast: notesToast(errors) };
}

/** "Notes Required - Please provide notes ..." is a toast's title and line, split at the dash. */
export function notesToast(errors: Record<string, string>): { title: string; description: string } | null {
  if (errors.verificationNotes !== NOTES_REQUIRED) return null;
  const [title, description] = splitTitle(NOTES_REQUIRED);
  return { title, description };
}

/** Under the notes box the "Notes Required" part would repeat the label: only the instruction is shown. */
export function notesErrorShown(message: string | undefined): string | undefined {
  return message === NOTES_REQUIRED ? splitTitle(message)[1] : message;
}

function splitTitle(message: string): [string, string] {
  const at = message.indexOf(' - ');
  return at < 0 ? [message, ''] : [message.slice(0, at), message.slice(at + 3)];
}

/** The success toast: what was decided, and what the worker can do next. */
export function verificationDoneToast(decision: VerificationDecision, workerName: string, crew = false): { title: string; description: string } {
  if (crew) {
    return decision === 'approved'
      ? { title: 'Work approved', description: 'Thank you. Your pros can now send you their invoices.' }
      : { title: 'Changes requested', description: 'Your pros have your notes and will get back to the job.' };
  }
  return decision === 'approved'
    ? { title: 'Work approved', description: `Thank you. ${workerName} can now send you the invoice.` }
    : { title: 'Changes requested', description: `${workerName} has your notes and will get back to the job.` };
}

/** The card as it stands once the decision is in, before the next poll confirms it. */
export function afterDecision<T extends Pick<ServiceRequestView, 'id' | 'verification'>>(
  list: readonly T[] | undefined,
  jobId: string,
  input: Pick<ClientVerificationInput, 'verificationStatus' | 'verificationNotes'>,
): T[] | undefined {
  return list?.map((item) =>
    item.id === jobId
      ? { ...item, verification: { ...item.verification, pending: false, status: input.verificationStatus, notes: input.verificationNotes ?? null } }
      : item,
  );
}
