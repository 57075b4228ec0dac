import type { CategorySlug } from './categories';

/**
 * The job sizes a customer picks from before sending a job, and the hours a job of each size
 * typically takes per trade: plain data the estimate multiplies by a pro's hourly rate
 * (shared/domain/estimate.ts). Tune the numbers here; nothing else needs to change.
 */
export const jobSizes = ['small', 'medium', 'large'] as const;
export type JobSize = (typeof jobSizes)[number];

export const jobSizeLabels: Record<JobSize, string> = {
  small: 'Small (a quick fix)',
  medium: 'Medium (a few hours)',
  large: 'Large (most of a day)',
};

/** A form that sends no size (an older client) is estimated as a medium job. */
export const DEFAULT_JOB_SIZE: JobSize = 'medium';

export const typicalHours: Record<CategorySlug, Record<JobSize, number>> = {
  plumbing: { small: 1, medium: 2.5, large: 6 },
  electrical: { small: 1, medium: 3, large: 6 },
  construction: { small: 3, medium: 8, large: 16 },
  painting: { small: 2, medium: 6, large: 14 },
  handyman: { small: 1, medium: 2.5, large: 5 },
  cleaning: { small: 2, medium: 4, large: 7 },
};

export function isJobSize(value: string): value is JobSize {
  return (jobSizes as readonly string[]).includes(value);
}
