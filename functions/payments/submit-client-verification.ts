import { routeByName } from '../../shared/routes';
import { clientVerificationSchema, type ClientVerificationResult } from '../../shared/schemas/invoice';
import { invoicesRepo } from './data/invoices';
import { JobChangeRefused, jobsRepo, type JobItem } from '../jobs/data/jobs';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { workVerified } from '../jobs/job-events';
import { logger } from '../common/logger';
import { cancelOne } from '../bookings/cancellation';
import { crewOf, isCrewLead } from '../jobs/crews';
import { stillWorking, verifiableMembers } from '../jobs/job-views';

export const VERIFICATION_JOB_NOT_FOUND = 'We could not find this job among yours.';
/** A crew's work is verified once, on the lead, for every pro. */
export const VERIFY_ON_LEAD = "Verify the work for the whole crew on the request's page.";

/**
 * Why a worker_verification is refused rather than recorded: the pro's identity was checked when
 * the owner approved them (ID front, back and a selfie), and their name, photo and phone are on
 * the customer's timeline from the moment they accept, so a customer's "this is my pro" would
 * change nothing and prove nothing.
 */
export const WORKER_VERIFICATION_REFUSED =
  "worker_verification is not a step here: every pro's ID is checked before they are approved, and your pro's name, photo and phone are on your request. Send work_verification to approve or reject the finished work.";

/** Another customer's job answers exactly as a missing one: its existence is not theirs to learn. */
async function customersJob(jobId: string, customerId: string): Promise<JobItem> {
  const job = await jobsRepo.findCustomersJob(jobId, customerId);
  if (!job) throw new NotFoundError(VERIFICATION_JOB_NOT_FOUND);
  return job;
}

function refusalFor(job: JobItem | undefined): Error {
  if (!job) return new NotFoundError(VERIFICATION_JOB_NOT_FOUND);
  if (job.state === 'verified' || job.state === 'paid') return new ConflictError('You have already approved this work.');
  if (job.state === 'in_progress' && job.verificationStatus === 'rejected') {
    return new ConflictError('You asked for changes; you can verify again once the professional completes the work.');
  }
  return new ConflictError('You can verify the work once the professional marks it completed.');
}

/**
 * The customer's answer to "verify the completed work". Approving lets
 * the worker invoice; rejecting (notes required, checked by the schema) sends the job back to them.
 * An invoice_verification approval is Verify Work on the job's invoice.
 */
export const handler = http(routeByName('submit-client-verification'), clientVerificationSchema, async ({ body, caller }) => {
  if (body.verificationType === 'worker_verification') {
    throw new BadRequestError(WORKER_VERIFICATION_REFUSED);
  }
  const job = await customersJob(body.serviceRequestId, caller.id);
  if (!isCrewLead(job)) throw new ConflictError(VERIFY_ON_LEAD);
  if (body.workerId && job.acceptedBy && body.workerId !== job.acceptedBy && !job.crew) throw new ForbiddenError('This verification is for another professional.');
  const approved = body.verificationStatus === 'approved';
  const now = new Date().toISOString();

  if (body.verificationType === 'invoice_verification') {
    if (!approved) throw new ConflictError('To dispute an invoice, contact support; it stays unpaid until then.');
    if (!job.invoiceId) throw new ConflictError('There is no invoice for this job yet.');
    // Approving the work already verified an invoice made after it: answering again changes nothing.
    const invoice = await invoicesRepo.markWorkVerified(job.invoiceId, caller.id, now);
    if (invoice) logger.info('Invoice verified', { jobId: job.id, invoiceId: job.invoiceId });
    return { ok: true, jobId: job.id, state: job.state, verificationStatus: 'approved' } satisfies ClientVerificationResult;
  }

  if (job.crew && job.crew.jobIds.length > 1) return verifyCrew(job, approved, body.verificationNotes?.trim() || null, now, body.verificationStatus);

  try {
    const updated = await jobsRepo.recordVerification({
      jobId: job.id,
      customerId: caller.id,
      approved,
      notes: body.verificationNotes?.trim() || null,
      now,
    });
    logger.info(approved ? 'Work approved' : 'Work sent back', { jobId: job.id, type: body.verificationType });
    await workVerified(updated, approved, updated.verificationNotes ?? null);
    return { ok: true, jobId: job.id, state: updated.state, verificationStatus: body.verificationStatus } satisfies ClientVerificationResult;
  } catch (error) {
    if (error instanceof JobChangeRefused) throw refusalFor(error.current);
    throw error;
  }
});

/**
 * A crew's one verification, on the lead: allowed once every pro who took a job has completed it
 * (members that ended with nobody or were cancelled are left out); approving verifies every
 * completed member, asking for changes sends each back to its pro. Each member is its own
 * conditional write (only from completed); the first of them in crew order is written first and
 * decides between two answers sent at once: the one it refuses writes nothing more.
 */
async function verifyCrew(lead: JobItem, approved: boolean, notes: string | null, now: string, verificationStatus: 'approved' | 'rejected') {
  const crew = await crewOf(lead);
  const working = stillWorking(crew).length;
  if (working > 0) {
    throw new ConflictError(
      `${working === 1 ? 'One pro is' : `${working} pros are`} still working on this request: you can verify the work once every pro has completed.`,
    );
  }
  const completed = verifiableMembers(crew).filter((job) => job.state === 'completed');
  if (completed.length === 0) throw refusalFor(lead);
  const answered: JobItem[] = [];
  for (const [i, job] of completed.entries()) {
    try {
      answered.push(await jobsRepo.recordVerification({ jobId: job.id, customerId: lead.customerId, approved, notes, now }));
    } catch (error) {
      if (!(error instanceof JobChangeRefused)) throw error;
      // The first refused: another answer got there first, and finishes the rest itself.
      if (i === 0) throw refusalFor(error.current);
    }
  }
  // The work is done: the search for a pro nobody took stops, so none joins after the bill is paid.
  if (approved && answered.length > 0) await stopUnfilled(crew, lead.customerId);
  logger.info(approved ? 'Crew work approved' : 'Crew work sent back', { jobId: lead.id, pros: answered.length });
  await Promise.all(answered.map((job) => workVerified(job, approved, job.verificationNotes ?? null)));
  const state = answered.find((job) => job.id === lead.id)?.state ?? (await jobsRepo.findById(lead.id))!.state;
  return { ok: true, jobId: lead.id, state, verificationStatus } satisfies ClientVerificationResult;
}

const UNFILLED_STOPPED = 'You approved the work of the pros who came, so we stopped looking for the rest.';

/** A crew's jobs no pro took (still searching, or the search ended with nobody) are cancelled; one taken meanwhile is left to its pro. */
async function stopUnfilled(crew: readonly JobItem[], customerId: string): Promise<void> {
  for (const job of crew.filter((each) => !each.acceptedBy && (each.state === 'booked' || each.state === 'offered'))) {
    try {
      await cancelOne(job, customerId, UNFILLED_STOPPED);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
}
