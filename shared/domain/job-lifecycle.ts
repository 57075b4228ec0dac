import type { JobState } from './booking-status';

/**
 * The job lifecycle, as the server enforces it. Workers move their own job
 * only along the steps the worker app offers (Mark En Route, Mark Arrived, Start Work,
 * Complete Job); dispatch, timers, the customer and payment move the rest.
 */
export type JobActor = 'dispatch' | 'worker' | 'timer' | 'customer' | 'payment';

const transitions: Record<JobState, Partial<Record<JobState, readonly JobActor[]>>> = {
  booked: { offered: ['dispatch'], cancelled: ['customer'] },
  offered: { accepted: ['worker'], offered: ['dispatch', 'timer'], booked: ['timer'], cancelled: ['customer'] },
  // Back to dispatch ('booked', then offered again) when the arrival grace runs out. Arrived by the
  // pro's proven Mark Arrived, or by the customer confirming one that no location proved.
  accepted: { en_route: ['worker'], arrived: ['worker', 'customer'], booked: ['timer'], cancelled: ['customer'] },
  en_route: { arrived: ['worker', 'customer'], booked: ['timer'], cancelled: ['customer'] },
  arrived: { in_progress: ['worker'] },
  in_progress: { completed: ['worker'] },
  // The customer approves the finished work, or rejects it with notes and the worker resumes it.
  completed: { verified: ['customer'], in_progress: ['customer'] },
  verified: { paid: ['payment'] },
  paid: {},
  cancelled: {},
};

/** The states an actor may move a job to from `from`, in lifecycle order. */
export function nextStates(from: JobState, actor: JobActor): JobState[] {
  return (Object.entries(transitions[from]) as [JobState, readonly JobActor[]][])
    .filter(([, actors]) => actors.includes(actor))
    .map(([to]) => to);
}

export function canMove(from: JobState, to: JobState, actor: JobActor): boolean {
  return transitions[from][to]?.includes(actor) ?? false;
}

/** States in which a worker holds the job, so the arrival rule and their job list apply. */
export const heldStates = ['accepted', 'en_route', 'arrived', 'in_progress'] as const satisfies readonly JobState[];
