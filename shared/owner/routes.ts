import type { RouteDef, ResponseSchemaName, RecurringDef, StreamConsumerDef } from '../route-types';
import { PASSWORD_HASHING_MEMORY_MB, NO_SUCH_JOB } from '../route-types';

export const ownerRoutes = [

  // The owner
  { name: 'get-admin-status', method: 'GET', path: '/api/admin/status', access: 'anyone', response: 'adminStatus', table: 'read' },
  { name: 'get-setup-status', method: 'GET', path: '/api/admin/setup/status', access: 'public', response: 'setupStatus', table: 'read' },
  {
    name: 'setup-admin',
    method: 'POST',
    path: '/api/admin/setup',
    access: 'public',
    body: 'adminSetupSchema',
    response: 'ownerSignedIn',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  // The owner's email, where a reset link goes: changing it takes the current password.
  { name: 'get-owner-email', method: 'GET', path: '/api/admin/email', access: 'admin', response: 'ownerEmailOnFile', table: 'read' },
  {
    name: 'set-owner-email',
    method: 'PUT',
    path: '/api/admin/email',
    access: 'admin',
    body: 'ownerEmailSchema',
    response: 'ownerEmail',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  // The owner's jobs: a page of the table (filters), "Needs attention", one job with its timeline, and the owner's moves on it.
  { name: 'list-jobs', method: 'GET', path: '/api/admin/jobs/all', access: 'admin', query: 'jobAdminFilters', response: 'jobAdminPage', table: 'read' },
  {
    name: 'list-jobs-needing-attention',
    method: 'GET',
    path: '/api/admin/jobs/attention',
    access: 'admin',
    query: 'jobAttentionPage',
    response: 'jobAdminPage',
    table: 'read',
  },
  { name: 'get-admin-job', method: 'GET', path: '/api/admin/jobs/{id}', access: 'admin', params: 'id', missing: NO_SUCH_JOB, response: 'jobAdminDetail', table: 'read' },
  {
    name: 'offer-job-to-worker',
    method: 'POST',
    path: '/api/admin/jobs/{id}/offer',
    access: 'admin',
    params: 'id',
    body: 'adminJobOfferSchema',
    missing: NO_SUCH_JOB,
    response: 'jobAdminDetail',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  { name: 'get-analytics', method: 'GET', path: '/api/admin/analytics', access: 'admin', query: 'analyticsRange', response: 'analytics', table: 'read' },
  // CSV files of a range's jobs and payments (text/csv, a file name to save them under).
  { name: 'export-jobs', method: 'GET', path: '/api/admin/exports/jobs', access: 'admin', query: 'exportRange', response: 'csv', table: 'read' },
] as const satisfies readonly (RouteDef & { response: ResponseSchemaName })[];

export const ownerRecurring = [
  {
    // The owner's morning mail: yesterday's figures and what waits for them (queued in the outbox).
    name: 'send-daily-summary',
    cron: 'cron(0 7 * * ? *)',
    dailyAtUtc: { hour: 7, minute: 0 },
    table: 'readwrite',
    description: "Daily: mails the owner yesterday's jobs and money and what waits for their review",
  },
] as const satisfies readonly RecurringDef[];

export const ownerStreamConsumers = [
  {
    // The owner's figures are counted after the changes they count: each change writes a tally of
    // its own, which this adds into the stats items a batch at a time (functions/owner/count-stats.ts), so
    // no user's call writes an item that every booking touches.
    name: 'count-stats',
    table: 'readwrite',
    filter: {
      eventName: ['INSERT'],
      dynamodb: { NewImage: { entity: { S: ['tally'] } } },
    },
  },
] as const satisfies readonly StreamConsumerDef[];
