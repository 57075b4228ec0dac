/**
 * Where the owner's notifications and mails lead in the console: the dashboard, one of its tabs
 * (dashboard-page.tsx reads `tab`), or the owner's page of one job, where its timeline is and it
 * can be offered again.
 */
export const ownerConsoleUrl = {
  console: '/admin',
  applications: '/admin?tab=applications',
  workers: '/admin?tab=workers',
  documents: '/admin?tab=documents',
  job: (jobId: string) => `/admin/jobs/${encodeURIComponent(jobId)}`,
} as const;
