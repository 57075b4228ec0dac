/**
 * Which of a worker's live notification types change which list on
 * the dashboard: a new offer refetches the offers at once instead of at the next 10 s poll; a
 * change to a held job (a strike, a reassignment, the customer's verdict) refetches the jobs.
 */
export function refreshesOffers(type: string): boolean {
  return type === 'job_created' || type.includes('offer');
}

export function refreshesHeldJobs(type: string): boolean {
  return (type.startsWith('job_') && type !== 'job_created') || type === 'system_alert';
}
