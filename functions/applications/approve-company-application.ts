import { routeByName } from '../../shared/routes';
import { companyApprovalSchema } from '../../shared/schemas/applications';
import { applicationsRepo, toCompanyApplicationDecision } from './data/applications';
import { http } from '../common/http';
import { logger } from '../common/logger';

/** {id} is the company application's id; a second decision on it is a 409. */
export const handler = http(routeByName('approve-company-application'), companyApprovalSchema, async ({ params, body, caller }) => {
  const decided = await applicationsRepo.decideCompanyApplication(params.id, {
    status: 'approved',
    notes: body.notes,
    now: new Date().toISOString(),
  });
  logger.info('Company application approved', { applicationId: params.id, ownerId: caller.id });
  return toCompanyApplicationDecision(decided);
});
