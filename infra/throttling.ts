import { LOCATION_INTERVAL_MS } from '../shared/realtime-limits';

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

/**
 * The /ws stage's limit, sized from a model rather than from today's traffic (every frame is a
 * Lambda invocation, and API Gateway counts them across every connection of the stage):
 *
 * - Pros share a location fix every LOCATION_INTERVAL_MS (2 s) while en route or working, about 45
 *   minutes a booking (the arrival window, then the work).
 * - The sized-for load is 100 times 100,000 bookings a month: 10,000,000 / (30 × 86,400 s) ≈ 3.9
 *   bookings a second on average, with bursts of 1,000 bookings in a minute.
 * - Pros sharing at once (Little's law, arrivals × time each): 3.86/s × 2,700 s ≈ 10,400 on average.
 *   A burst of 1,000 bookings puts 1,000 more sharing for their 45 minutes: ≈ 11,400 at the peak.
 * - Steady frames at that peak: 11,400 / 2 s ≈ 5,700 a second (5,200 on average).
 *
 * The rate leaves some 40% above that peak for joins, pings and the customers' and owner's frames.
 * API Gateway throttles the whole account and region at 10,000 requests a second (the HTTP API's
 * calls included) with a burst of 5,000, and no stage may go beyond it, so the burst is the
 * account's; past the model, ask AWS to raise the account limit before raising these. New
 * connections (500 a second per account) stay far below: the burst opens some 17 sharing
 * sockets a second.
 */
export const WEBSOCKET_MODEL = {
  bookingsPerMonth: 100 * 100_000,
  burstBookingsPerMinute: 1000,
  sharingSecondsPerBooking: 45 * 60,
  secondsBetweenFixes: LOCATION_INTERVAL_MS / 1000,
} as const;

/** Location frames a second at the model's peak concurrency (the burst's bookings on top of the average). */
export function peakLocationFramesPerSecond(model: typeof WEBSOCKET_MODEL = WEBSOCKET_MODEL): number {
  const averageBookingsPerSecond = model.bookingsPerMonth / (30 * 24 * 60 * 60);
  const sharingAtOnce = averageBookingsPerSecond * model.sharingSecondsPerBooking + model.burstBookingsPerMinute;
  return sharingAtOnce / model.secondsBetweenFixes;
}

/** The /ws stage's throttle (infra/parts/realtime.ts): see the model above. */
export const webSocketThrottle: ThrottleLimit = { rateLimit: 8000, burstLimit: 5000 };
