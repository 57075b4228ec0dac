import type { RouteDef, ResponseSchemaName, TimerDef } from '../route-types';
import { NO_SUCH_WORKER, NO_SUCH_STRIKE } from '../route-types';

export const arrivalRoutes = [
  {
    name: 'list-worker-strikes',
    method: 'GET',
    path: '/api/admin/workers/{id}/strikes',
    access: 'admin',
    params: 'id',
    query: 'strikePage',
    missing: NO_SUCH_WORKER,
    response: 'strikePage',
    table: 'read',
  },
  { name: 'list-strike-appeals', method: 'GET', path: '/api/admin/strikes/appeals', access: 'admin', query: 'strikePage', response: 'strikePage', table: 'read' },
  {
    name: 'void-strike',
    method: 'POST',
    path: '/api/admin/strikes/{id}/void',
    access: 'admin',
    params: 'id',
    body: 'strikeDecisionSchema',
    missing: NO_SUCH_STRIKE,
    response: 'strike',
    table: 'readwrite',
    realtime: true,
  },
  {
    name: 'uphold-strike',
    method: 'POST',
    path: '/api/admin/strikes/{id}/uphold',
    access: 'admin',
    params: 'id',
    body: 'strikeDecisionSchema',
    missing: NO_SUCH_STRIKE,
    response: 'strike',
    table: 'readwrite',
    realtime: true,
  },
  // Any worker: a suspended pro reads their record and appeals; that is what suspension leaves them.
  { name: 'get-worker-strikes', method: 'GET', path: '/api/workers/strikes', access: 'worker', response: 'workerStrikeRecord', table: 'read' },
  {
    name: 'appeal-strike',
    method: 'POST',
    path: '/api/workers/strikes/{id}/appeal',
    access: 'worker',
    params: 'id',
    body: 'strikeAppealSchema',
    missing: NO_SUCH_STRIKE,
    response: 'strike',
    table: 'readwrite',
    realtime: true,
  },
  // "Has your pro arrived?": the customer's answer to a Mark Arrived that no location proved.
  {
    name: 'confirm-arrival',
    method: 'POST',
    path: '/api/requests/{id}/arrival',
    access: 'customer',
    params: 'id',
    missing: { status: 404, message: 'We could not find this request among yours.' },
    body: 'arrivalAnswerSchema',
    response: 'serviceRequest',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
] as const satisfies readonly (RouteDef & { response: ResponseSchemaName })[];

export const arrivalTimers = [
  { name: 'enforce-arrival', table: 'readwrite', scheduler: true },
] as const satisfies readonly TimerDef[];
