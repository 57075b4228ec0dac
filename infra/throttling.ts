/**
 * Per-route throttling of the HTTP API. API Gateway counts a route's limit across every
 * caller, so these are ceilings for the whole marketplace, not per person: a flood against one
 * sensitive route is cut off there (429) without taking the rest of the API down with it. Per-person
 * limits live in the handlers (login throttling per name and address, per-connection frame limits).
 *
 * Each class names the routes it covers by manifest name; infra/parts/guards.test.ts checks
 * that every name exists in shared/routes.ts, so a renamed route cannot silently lose its limit.
 */
export interface ThrottleLimit {
  /** Steady-state requests per second. */
  rateLimit: number;
  /** Requests allowed at once above the steady rate. */
  burstLimit: number;
}

/** Every route not named below: the stage's default. */
export const defaultThrottle: ThrottleLimit = { rateLimit: 100, burstLimit: 200 };

export const throttleClasses = {
  /** Password guessing and account setup: a person logs in a few times a day (and rarely forgets the password). */
  login: {
    limit: { rateLimit: 10, burstLimit: 20 },
    routes: [
      'login-admin',
      'login-worker',
      'setup-admin',
      'change-password',
      'create-worker-account',
      'request-worker-account-link',
      'check-worker-account-link',
      'set-owner-email',
      'request-password-reset',
      'reset-password',
    ],
  },
  /** Applications write documents and rows for the owner to review: rare and costly to spam. */
  application: {
    limit: { rateLimit: 5, burstLimit: 10 },
    routes: ['submit-worker-application', 'apply-worker', 'submit-company-application'],
  },
  /** Presigned upload forms: each one opens a 10 MB write to the private bucket. */
  upload: {
    limit: { rateLimit: 10, burstLimit: 20 },
    routes: ['create-upload', 'create-document-upload', 'confirm-document-upload'],
  },
  /** New jobs: each one dispatches, schedules timers and notifies workers. */
  booking: {
    limit: { rateLimit: 20, burstLimit: 40 },
    routes: ['create-booking', 'create-request', 'hire-worker'],
  },
} as const satisfies Record<string, { limit: ThrottleLimit; routes: readonly string[] }>;

export type ThrottleClass = keyof typeof throttleClasses | 'default';

/** The class and limit of one route, by manifest name. */
export function throttleFor(routeName: string): { throttleClass: ThrottleClass; limit: ThrottleLimit } {
  for (const [name, { limit, routes }] of Object.entries(throttleClasses)) {
    if ((routes as readonly string[]).includes(routeName)) return { throttleClass: name as ThrottleClass, limit };
  }
  return { throttleClass: 'default', limit: defaultThrottle };
}
