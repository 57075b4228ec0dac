import { routeByName } from '../../shared/routes';
import { jobRatingSchema } from '../../shared/schemas/review';
import { reviewsRepo } from '../workers/data/reviews';
import { http, reply } from '../common/http';
import { logger } from '../common/logger';

/** The /rate/:jobId page: stars and an optional comment, the same one review per job as the dialog. */
export const handler = http(routeByName('rate-job'), jobRatingSchema, async ({ body, params, caller }) => {
  const jobId = params.id;
  const result = await reviewsRepo.record({
    jobId,
    customerId: caller.id,
    rating: body.rating,
    text: body.comment,
    now: new Date().toISOString(),
  });
  logger.info('Job rated', { jobId, rating: body.rating });
  return reply(201, result);
});
