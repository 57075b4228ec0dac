import { routeByName } from '../shared/routes';
import type { Analytics } from '../shared/schemas/admin';
import { applicationsRepo } from './lib/data/applications';
import { ownerJobs, workerAdmin } from './lib/data/worker-admin';
import { http } from './lib/http';

/**
 * Real figures, never placeholders: application counts per status, workers by status, jobs by
 * state, and the rating over every review from the workers' running totals (null before the first).
 */
export const handler = http(routeByName('get-analytics'), async (): Promise<Analytics> => {
  const [applications, companyApplications, workers, jobs] = await Promise.all([
    applicationsRepo.workerCounts(),
    applicationsRepo.companyCounts(),
    workerAdmin.analytics(),
    ownerJobs.countByState(),
  ]);
  return { applications, companyApplications, ...workers, jobs };
});
