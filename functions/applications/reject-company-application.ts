import { routeByName } from '../../shared/routes';
import { companyRejectionSchema } from '../../shared/schemas/applications';
import { applicationsRepo, toCompanyApplicationDecision } from './data/applications';
import { http } from '../common/http';
import { logger } from '../common/logger';

/** {id} is the company application's id; the notes are what the company reads on its status page. */
export const handler = http(routeByName('reject-company-application'), companyRejectionSchema, async ({ params, body, caller }) => {
  const decided = await applicationsRepo.decideCompanyApplication(params.id, {
    status: 'rejected',
    notes: body.notes,
    now: new Date().toISOString(),
  });
  logger.info('Company application rejected', { applicationId: params.id, ownerId: caller.id });
  return toCompanyApplicationDecision(decided);
});
