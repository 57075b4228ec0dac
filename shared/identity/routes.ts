import type { RouteDef, ResponseSchemaName } from '../route-types';
import { PASSWORD_HASHING_MEMORY_MB } from '../route-types';

export const identityRoutes = [
  {
    name: 'login-admin',
    method: 'POST',
    path: '/api/admin/login',
    access: 'public',
    body: 'adminLoginSchema',
    response: 'ownerSignedIn',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  // Public, not 'signed-in': a logout without a live session still clears the cookie (200), and it
  // may only delete: it ends whatever session the cookie names without reading who that is.
  { name: 'logout-admin', method: 'POST', path: '/api/admin/logout', access: 'public', response: 'ok', table: 'write' },
  { name: 'end-session', method: 'POST', path: '/api/auth/logout', access: 'public', response: 'ok', table: 'write' },
  { name: 'get-current-user', method: 'GET', path: '/api/auth/me', access: 'anyone', response: 'currentUser', table: 'read' },
  {
    name: 'change-password',
    method: 'POST',
    path: '/api/auth/change-password',
    access: 'admin',
    body: 'changePasswordSchema',
    response: 'message',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  // "Forgot password?": a single-use link by mail (the same answer whether or not the address is
  // known, throttled like a login), then the new password with the link's secret.
  {
    name: 'request-password-reset',
    method: 'POST',
    path: '/api/auth/password-reset',
    access: 'public',
    body: 'passwordResetRequestSchema',
    response: 'message',
    table: 'readwrite',
  },
  {
    name: 'reset-password',
    method: 'POST',
    path: '/api/auth/password-reset/complete',
    access: 'public',
    body: 'passwordResetCompleteSchema',
    response: 'passwordReset',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  {
    name: 'dev-login',
    method: 'POST',
    path: '/api/auth/dev-login',
    access: 'public',
    body: 'devLoginSchema',
    response: 'devLogin',
    table: 'readwrite',
    localRuntimeOnly: true,
  },

  // Worker accounts
  {
    name: 'login-worker',
    method: 'POST',
    path: '/api/workers/login',
    access: 'public',
    body: 'workerLoginSchema',
    response: 'workerSession',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  // A pro account's password is set with a single-use link mailed to the application's address
  // (the same answer whether or not the address applied, throttled like a login).
  {
    name: 'request-worker-account-link',
    method: 'POST',
    path: '/api/workers/account-link',
    access: 'public',
    body: 'workerAccountLinkRequestSchema',
    response: 'message',
    table: 'readwrite',
  },
  {
    name: 'check-worker-account-link',
    method: 'POST',
    path: '/api/workers/account-link/check',
    access: 'public',
    body: 'workerAccountLinkCheckSchema',
    response: 'workerAccountLink',
    table: 'read',
  },
  {
    name: 'create-worker-account',
    method: 'POST',
    path: '/api/workers/create-account',
    access: 'public',
    body: 'workerCreateAccountSchema',
    response: 'workerSession',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  // It reads the session (and the worker) that proves who asks before ending the session.
  { name: 'logout-worker', method: 'POST', path: '/api/workers/logout', access: 'applicant', response: 'ok', table: 'readwrite' },
] as const satisfies readonly (RouteDef & { response: ResponseSchemaName })[];
