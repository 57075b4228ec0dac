import * as z from 'zod/mini';
import { categorySlugs } from '../categories';
import { strictBody } from '../validation';
import { choices, text } from './fields';
import { uploadKeyPattern } from './application-rules';
import { workerTypes } from '../domain/worker-types';

export type { WorkerSelf, WorkerAdminView } from './views/people';

/**
 * suspended: taken off dispatch until the owner decides (reached the strike limit, or suspended by
 * hand); the pro still signs in to see why, their strikes and to appeal.
 * pending_review: an applicant who made their account before the owner decided; rejected: one the
 * owner turned down. Both sign in to their application's status and nothing else.
 */
export const workerStatuses = ['pending_review', 'active', 'suspended', 'terminated', 'rejected'] as const;
export type WorkerStatus = (typeof workerStatuses)[number];
export { workerTypes, type WorkerType } from '../domain/worker-types';

/** PUT /api/workers/me (JSON; the photo goes to S3 first, as every upload does). Rate in cents. */
export const workerProfileSchema = strictBody({
  fullName: text('Full name required', z.minLength(2, 'Full name required'), z.maxLength(100, 'Full name is too long')),
  yearsExp: z.number({ error: 'Years of experience required' }).check(
    z.int('Years of experience required'),
    z.gte(0, 'Years of experience required'),
    z.lte(50, 'Years of experience required'),
  ),
  categories: choices(categorySlugs, {
    invalid: 'Choose categories from the list',
    required: 'At least one category required',
    duplicate: 'Choose each category once',
  }),
  hourlyRate: z.number({ error: 'Hourly rate must be at least $15' }).check(
    z.int('Hourly rate must be whole cents'),
    z.gte(1500, 'Hourly rate must be at least $15'),
    z.lte(20000, 'Hourly rate seems too high'),
  ),
  profilePhoto: z.optional(z.string().check(z.regex(uploadKeyPattern, 'Upload the photo again'))),
});
export type WorkerProfileInput = z.infer<typeof workerProfileSchema>;

export const availabilitySchema = strictBody({
  isAvailable: z.boolean({ error: 'isAvailable must be true or false' }),
});

export const workerTypeSchema = strictBody({
  workerType: z.enum(workerTypes, { error: 'Choose contract or independent' }),
});
