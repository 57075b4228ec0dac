import { routeByName } from '../../shared/routes';
import { rangeOf } from './analytics';
import { amount, toCsv } from '../common/csv';
import { exportsRepo } from './data/exports';
import { fileReply, http } from '../common/http';

/** The jobs sent in a range of days, as a CSV file (at most 5,000 rows; a longer range is a 400). */
export const handler = http(routeByName('export-jobs'), async ({ query }) => {
  const range = rangeOf(query, new Date().toISOString().slice(0, 10));
  const jobs = await exportsRepo.jobs(range.from, range.to);
  const csv = toCsv(
    ['Job id', 'Sent at', 'Kind', 'Trade', 'Service', 'Customer', 'Address', 'Description', 'State', 'Pro id', 'Accepted at', 'Arrive by', 'Arrived at', 'Completed at', 'Hours', 'Hourly rate', 'Reassigned', 'No pro at', 'Paid at'],
    jobs.map((job) => [
      job.id,
      job.createdAt,
      job.kind,
      job.category,
      job.service,
      job.customerName,
      job.address,
      job.description,
      job.state,
      job.acceptedBy,
      job.acceptedAt,
      job.arriveBy,
      job.arrivedAt,
      job.endedAt,
      job.totalHours,
      amount(job.hourlyRate),
      job.reassignedCount,
      job.noWorkerAt,
      job.paidAt,
    ]),
  );
  return fileReply(csv, { contentType: 'text/csv; charset=utf-8', filename: `jobs-${range.from}-to-${range.to}.csv` });
});
