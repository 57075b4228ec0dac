import { routeByName } from '../shared/routes';
import { applicationsRepo } from './lib/data/applications';
import { ownerJobs, workerAdmin } from './lib/data/worker-admin';
import { http } from './lib/http';

/**
 * Real figures, never placeholders: application counts per status, workers by status, jobs by
 * state. Ratings come from reviews, which do not exist yet: averageRating stays null until they do.
 */
export const handler = http(routeByName('get-analytics'), async () => {
  const [applications, companyApplications, workers, jobs] = await Promise.all([
    applicationsRepo.workerCounts(),
    applicationsRepo.companyCounts(),
    workerAdmin.counts(),
    ownerJobs.countByState(),
  ]);
  return { applications, companyApplications, workers, jobs, averageRating: null, reviewCount: 0 };
});
