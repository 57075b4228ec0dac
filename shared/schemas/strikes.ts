import * as z from 'zod/mini';
import { dispatchDefaults } from '../domain/dispatch';
import { strictBody } from '../validation';
import { text } from './fields';
import { pageOf } from './page';
import { workerStatuses } from './worker';

/**
 * A pro's strike record (worker_penalties): each strike is kept with its evidence, and the pro may
 * contest it once. `standing` counts against the pro until decided; `appealed` waits for the owner
 * (still counted); `upheld` stays counted for good; `voided` no longer counts.
 */
export const strikeStatuses = ['standing', 'appealed', 'voided', 'upheld'] as const;
export type StrikeStatus = (typeof strikeStatuses)[number];

/** Why a strike was given. Only the arrival timer gives strikes today. */
export const strikeReasons = ['late_arrival'] as const;
export type StrikeReason = (typeof strikeReasons)[number];

/**
 * Strikes that count (standing, appealed or upheld) at which the pro is suspended until the owner
 * decides. Voiding one lowers the count but does not lift a suspension: only the owner's Reinstate does.
 */
export const STRIKES_TO_SUSPEND = dispatchDefaults.strikesToSuspend;

export const MAX_APPEAL_NOTE = 1000;
export const MAX_DECISION_NOTE = 1000;
export const MAX_STATUS_REASON = 500;

/** POST /api/workers/strikes/{id}/appeal: why the strike is wrong, in the pro's words. */
export const strikeAppealSchema = strictBody({
  note: text(
    'Say why this strike is wrong',
    z.minLength(1, 'Say why this strike is wrong'),
    z.maxLength(MAX_APPEAL_NOTE, `Keep the appeal under ${MAX_APPEAL_NOTE} characters`),
  ),
});
export type StrikeAppealInput = z.infer<typeof strikeAppealSchema>;

/** POST /api/admin/strikes/{id}/void and …/uphold: the owner's reason, which the pro sees. */
export const strikeDecisionSchema = strictBody({
  note: text(
    'Write a note for the pro',
    z.minLength(1, 'Write a note for the pro'),
    z.maxLength(MAX_DECISION_NOTE, `Keep the note under ${MAX_DECISION_NOTE} characters`),
  ),
});
export type StrikeDecisionInput = z.infer<typeof strikeDecisionSchema>;

/** POST /api/admin/workers/{id}/suspend, …/reinstate, …/terminate: the reason the pro is shown. */
export const workerStatusChangeSchema = strictBody({
  reason: text(
    'Give a reason the pro will see',
    z.minLength(1, 'Give a reason the pro will see'),
    z.maxLength(MAX_STATUS_REASON, `Keep the reason under ${MAX_STATUS_REASON} characters`),
  ),
});
export type WorkerStatusChangeInput = z.infer<typeof workerStatusChangeSchema>;

/** Where the pro's device last put them, as dispatch or the job's room heard it. */
export const strikeFix = z.strictObject({
  lat: z.number(),
  lng: z.number(),
  accuracy: z.nullable(z.number()),
  at: z.string(),
  /** `job`: shared with the job while on the way; `dispatch`: the last position shared with dispatch. */
  source: z.enum(['job', 'dispatch']),
});

/** What the timer saw when it gave the strike. */
export const strikeEvidence = z.strictObject({
  arriveBy: z.string(),
  /** The newest fix the pro shared (null: none), and its distance from the job's address, whole metres. */
  lastFix: z.nullable(strikeFix),
  distanceM: z.nullable(z.number()),
  /** A typed address with no position cannot be measured against. */
  jobHasPosition: z.boolean(),
  /** The pro's Mark Arrived that nothing proved, if one was waiting for the customer. */
  claim: z.nullable(z.strictObject({ claimedAt: z.string(), reason: z.string(), distanceM: z.nullable(z.number()) })),
});
export type StrikeEvidence = z.infer<typeof strikeEvidence>;

export const strikeView = z.strictObject({
  id: z.string(),
  workerId: z.string(),
  workerName: z.string(),
  jobId: z.string(),
  at: z.string(),
  reason: z.enum(strikeReasons),
  evidence: strikeEvidence,
  status: z.enum(strikeStatuses),
  appealNote: z.nullable(z.string()),
  appealedAt: z.nullable(z.string()),
  decisionNote: z.nullable(z.string()),
  decidedAt: z.nullable(z.string()),
  /** The owner's name (or "system"), for the record. */
  decidedBy: z.nullable(z.string()),
});
export type StrikeView = z.infer<typeof strikeView>;

/** GET /api/workers/strikes: the pro's own record and where their account stands. */
export const workerStrikeRecord = z.strictObject({
  status: z.enum(workerStatuses),
  /** Why the account is suspended or terminated (or was last reinstated), as the pro is told. */
  statusReason: z.nullable(z.string()),
  statusChangedAt: z.nullable(z.string()),
  /** Strikes that count now, and how many suspend the account. */
  strikes: z.number(),
  strikesToSuspend: z.number(),
  items: z.array(strikeView),
});
export type WorkerStrikeRecord = z.infer<typeof workerStrikeRecord>;

export const strikePage = pageOf(strikeView);
