import { DEFAULT_PLATFORM_FEE_PERCENT } from '../../shared/constants';
import { DEFAULT_ARRIVAL_RADIUS_METRES } from '../../shared/domain/arrival';
import { dispatchDefaults } from '../../shared/domain/dispatch';
import { estimateDefaults } from '../../shared/domain/estimate';

/**
 * The environment, parsed once per container at cold start: a misconfigured function fails at
 * once, naming every bad variable. Plain code rather than a schema library: every function loads
 * this, and most take no body, so they need no validation library at all (npm run bench).
 */
type Source = Record<string, string | undefined>;

interface Reader {
  problems: string[];
}

/** An optional value (or its fallback); set but empty is a mistake worth naming. */
function text(r: Reader, source: Source, name: string, what: string, fallback?: string): string | undefined {
  const value = source[name] ?? fallback;
  if (value === '') r.problems.push(`${name}: ${name} must ${what}`);
  return value || undefined;
}

function required(r: Reader, source: Source, name: string, what: string, fallback?: string): string {
  const value = text(r, source, name, what, fallback);
  if (value === undefined && source[name] === undefined) r.problems.push(`${name}: ${name} must ${what}`);
  return value ?? '';
}

function url(r: Reader, source: Source, name: string, fallback?: string): string | undefined {
  const value = text(r, source, name, 'be a URL', fallback);
  if (value === undefined) return undefined;
  try {
    new URL(value);
    return value;
  } catch {
    r.problems.push(`${name}: ${name} must be a URL`);
    return undefined;
  }
}

/** 'true' or absent: anything else is a mistake worth naming rather than a guess either way. */
function flag(r: Reader, source: Source, name: string): boolean {
  const value = source[name];
  if (value !== undefined && value !== 'true') r.problems.push(`${name}: ${name} must be true or unset`);
  return value === 'true';
}

function number(r: Reader, source: Source, name: string, range: { min: number; max: number; whole?: boolean }, fallback: number): number {
  const raw = source[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || (range.whole && !Number.isInteger(value))) {
    r.problems.push(`${name}: ${name} must be a ${range.whole ? 'whole number' : 'number'}`);
  } else if (value < range.min || value > range.max) {
    r.problems.push(
      range.whole
        ? `${name}: ${name} must be ${value < range.min ? `at least ${range.min}` : `at most ${range.max}`}`
        : `${name}: ${name} must be between ${range.min} and ${range.max}`,
    );
  }
  return value;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const GEOCODERS = ['amazon-location', 'nominatim', 'none'] as const;
export type GeocoderKind = (typeof GEOCODERS)[number];

/** Which geocoder, named or implied by GEOCODER_URL; a URL beside another geocoder is a contradiction worth naming. */
function geocoderKind(r: Reader, source: Source): GeocoderKind {
  const named = source.GEOCODER;
  const hasUrl = source.GEOCODER_URL !== undefined && source.GEOCODER_URL !== '';
  if (named === undefined || named === '') return hasUrl ? 'nominatim' : 'none';
  if (!(GEOCODERS as readonly string[]).includes(named)) {
    r.problems.push(`GEOCODER: GEOCODER must be one of ${GEOCODERS.join(', ')}`);
    return 'none';
  }
  if (named === 'nominatim' && !hasUrl) r.problems.push('GEOCODER_URL: GEOCODER_URL must be set when GEOCODER is nominatim');
  if (named !== 'nominatim' && hasUrl) r.problems.push(`GEOCODER_URL: GEOCODER_URL is for GEOCODER nominatim only, not ${named}`);
  return named as GeocoderKind;
}

export function parseEnv(source: Source) {
  const r: Reader = { problems: [] };
  const env = {
    TABLE_NAME: required(r, source, 'TABLE_NAME', 'name the DynamoDB table'),
    STAGE: required(r, source, 'STAGE', 'name the stage', 'prod'),
    /**
     * Set to 'true' by the local runtime alone (infra/local/stack.ts), never by the CDK stack: what
     * only a developer's laptop may do (dev-login, cookies without Secure over plain http, a loopback
     * push service) hangs on this, not on a stage name anyone can give a deployed stack.
     */
    LOCAL_RUNTIME: flag(r, source, 'LOCAL_RUNTIME'),
    AWS_REGION: required(r, source, 'AWS_REGION', 'name a region', 'us-east-1'),
    /** Only set where DynamoDB is not the AWS default endpoint (the local runtime). */
    DYNAMODB_ENDPOINT: url(r, source, 'DYNAMODB_ENDPOINT'),
    /**
     * How long one DynamoDB call may take before the SDK gives up on it and retries (it tries 3
     * times): DynamoDB answers in milliseconds, so a call still open after this is stuck, and the
     * caller is better told to try again (503) than kept waiting until the function times out.
     */
    DYNAMODB_TIMEOUT_MS: number(r, source, 'DYNAMODB_TIMEOUT_MS', { min: 50, max: 60_000, whole: true }, 2000),
    /** Only set where S3 is not the AWS default endpoint (the local runtime); path-style then. */
    S3_ENDPOINT: url(r, source, 'S3_ENDPOINT'),
    /**
     * Optional here because most functions never touch it; functions/common/storage.ts, the one module
     * that uses it, refuses to work without it and says so.
     */
    UPLOADS_BUCKET: text(r, source, 'UPLOADS_BUCKET', 'name the uploads bucket'),
    /** Only set where EventBridge Scheduler is not the AWS default endpoint (the local runtime, infra/local/scheduler.ts). */
    SCHEDULER_ENDPOINT: url(r, source, 'SCHEDULER_ENDPOINT'),
    /** The schedule group every timer (offer expiry, arrival grace) is created in. */
    SCHEDULE_GROUP: required(r, source, 'SCHEDULE_GROUP', 'name the schedule group', 'marketplace'),
    /**
     * The role EventBridge Scheduler assumes to invoke a timer function (set by the CDK stack).
     * Optional: the local runtime does not check it and functions/common/scheduler.ts sends a placeholder.
     */
    SCHEDULER_ROLE_ARN: text(r, source, 'SCHEDULER_ROLE_ARN', 'be the ARN of the role Scheduler assumes'),
    /**
     * Prepended to a timer function's name to form the schedule's target ARN: the Lambda function ARN
     * prefix in AWS (`arn:aws:lambda:<region>:<account>:function:`, set by the CDK stack), a fixed one
     * locally. Optional here because most functions never schedule; functions/common/scheduler.ts refuses
     * to schedule without it and says so.
     */
    TIMER_TARGET_PREFIX: text(r, source, 'TIMER_TARGET_PREFIX', 'be the Lambda function ARN prefix of timer targets'),
    /** The SQS queue a timer goes to when Scheduler cannot deliver it (set by the CDK stack; none locally). */
    SCHEDULER_DEAD_LETTER_ARN: text(r, source, 'SCHEDULER_DEAD_LETTER_ARN', 'be the ARN of the timers\' dead-letter queue'),
    PLATFORM_FEE_PERCENT: number(r, source, 'PLATFORM_FEE_PERCENT', { min: 0, max: 100 }, DEFAULT_PLATFORM_FEE_PERCENT),
    /** The estimate's rush fee for an as-soon-as-possible job, and the card processing fee it adds (shared/domain/estimate.ts). */
    RUSH_FEE_CENTS: number(r, source, 'RUSH_FEE_CENTS', { min: 0, max: 100_000, whole: true }, estimateDefaults.rushFeeCents),
    CARD_FEE_PERCENT: number(r, source, 'CARD_FEE_PERCENT', { min: 0, max: 20 }, estimateDefaults.cardFeePercent),
    CARD_FEE_FIXED_CENTS: number(r, source, 'CARD_FEE_FIXED_CENTS', { min: 0, max: 1000, whole: true }, estimateDefaults.cardFeeFixedCents),
    /** Dispatch timings: tunable per stage, so tests and demos can use short windows. */
    OFFER_SECONDS: number(r, source, 'OFFER_SECONDS', { min: 1, max: 3600, whole: true }, dispatchDefaults.offerSeconds),
    OFFERS_AT_ONCE: number(r, source, 'OFFERS_AT_ONCE', { min: 1, max: 10, whole: true }, dispatchDefaults.offersAtOnce),
    MAX_OFFERS: number(r, source, 'MAX_OFFERS', { min: 1, max: 100, whole: true }, dispatchDefaults.maxOffers),
    ARRIVAL_GRACE_SECONDS: number(r, source, 'ARRIVAL_GRACE_SECONDS', { min: 1, max: 24 * 3600, whole: true }, dispatchDefaults.arrivalGraceSeconds),
    /**
     * How close to the job's position a recent location fix must put a pro for Mark Arrived to count
     * by itself (shared/domain/arrival.ts); farther, or without a fix, the customer is asked.
     */
    ARRIVAL_RADIUS_METRES: number(r, source, 'ARRIVAL_RADIUS_METRES', { min: 10, max: 5000, whole: true }, DEFAULT_ARRIVAL_RADIUS_METRES),
    /**
     * Multiplies every creation limit (functions/common/creation-limits.ts). 1 in the cloud; more only
     * where one address stands for many people: the load run's simulated crowd and the handler tests,
     * which all call from the sample events' one address into one table.
     */
    CREATION_LIMIT_SCALE: number(r, source, 'CREATION_LIMIT_SCALE', { min: 1, max: 100000, whole: true }, 1),
    /**
     * The geocoder behind GET /api/geocode and /reverse (functions/catalog/geocoder.ts):
     * 'amazon-location' (Amazon Location Service, what the CDK stack sets by default), 'nominatim'
     * (a Nominatim-compatible service at GEOCODER_URL) or 'none' (no suggestions; the forms work
     * without them). Unset, it is 'nominatim' when GEOCODER_URL is given and 'none' otherwise, so
     * nothing leaves the machine unless someone chose where it goes.
     */
    GEOCODER: geocoderKind(r, source),
    /** The Nominatim-compatible service, for GEOCODER 'nominatim' only; there is no default. */
    GEOCODER_URL: url(r, source, 'GEOCODER_URL'),
    /** Only set where Amazon Location's Places API is not the AWS default endpoint (the tests' stand-in). */
    GEO_PLACES_ENDPOINT: url(r, source, 'GEO_PLACES_ENDPOINT'),
    SUPPORT_EMAIL: source.SUPPORT_EMAIL ?? 'support@fixly.app',
    /** Distances on screen: 'mi' (the default, as the money is US dollars) or 'km'. */
    DISTANCE_UNIT: (source.DISTANCE_UNIT ?? 'mi') as 'mi' | 'km',
    /** The locale screens write money and numbers in. */
    LOCALE: source.LOCALE ?? 'en-US',
    /** Only set where Secrets Manager is not the AWS default endpoint (the local runtime, infra/local/secrets-manager.ts). */
    SECRETS_MANAGER_ENDPOINT: url(r, source, 'SECRETS_MANAGER_ENDPOINT'),
    /**
     * The ids (names) of the Secrets Manager secrets a function may read, never their values: a
     * function's configuration is readable by more people than its secrets. functions/common/secrets.ts
     * reads them at run time; each is set only on the functions that need it (and may read it).
     */
    STRIPE_SECRET_ID: text(r, source, 'STRIPE_SECRET_ID', 'name the Stripe keys secret'),
    VAPID_SECRET_ID: text(r, source, 'VAPID_SECRET_ID', 'name the web push keys secret'),
    ORIGIN_SECRET_ID: text(r, source, 'ORIGIN_SECRET_ID', 'name the origin verification secret'),
    SETUP_SECRET_ID: text(r, source, 'SETUP_SECRET_ID', 'name the owner setup code secret'),
    /** Only set where Stripe is not api.stripe.com (the local runtime's Stripe endpoint). */
    STRIPE_API_URL: url(r, source, 'STRIPE_API_URL'),
    /**
     * The site's own origin for Stripe's return addresses (success, cancel, onboarding). Optional:
     * without it the browser's Origin header is used, which CloudFront forwards from our own pages.
     */
    PUBLIC_URL: url(r, source, 'PUBLIC_URL'),
    /**
     * The WebSocket API's management endpoint (https://<api>.execute-api.<region>.amazonaws.com/<stage>;
     * locally the runtime's @connections endpoint). Optional: without it, realtime delivery is off and
     * the screens' polling carries the news (functions/realtime/realtime.ts).
     */
    WEBSOCKET_ENDPOINT: url(r, source, 'WEBSOCKET_ENDPOINT'),
    /** Only set where SES is not the AWS default endpoint (the local runtime, infra/local/ses.ts). */
    SES_ENDPOINT: url(r, source, 'SES_ENDPOINT'),
    /**
     * Who the product's mail is from, e.g. `Fixly <no-reply@fixly.app>`: an address of the domain
     * whose SES identity the stack made. Set only on the mail sender; without it mail stays in the
     * outbox unsent (functions/mail/send-mail.ts says so in the log).
     */
    MAIL_FROM: text(r, source, 'MAIL_FROM', 'be a From address such as "Fixly <no-reply@example.com>"'),
    /**
     * The site's origin the links in mail point to (https://fixly.app; locally the stack's own
     * address). Set on the mail sender only, by the stack, never taken from a request.
     */
    SITE_URL: url(r, source, 'SITE_URL'),
    /** The SES configuration set every mail is sent through: its bounces and complaints come back to us. */
    SES_CONFIGURATION_SET: text(r, source, 'SES_CONFIGURATION_SET', 'name the SES configuration set'),
    /** Web push's contact for the push services (not secret; the keys are in the VAPID secret). */
    VAPID_SUBJECT: text(r, source, 'VAPID_SUBJECT', 'be a mailto: or https: contact for push services', 'mailto:support@fixly.app'),
  };
  if (env.DISTANCE_UNIT !== 'mi' && env.DISTANCE_UNIT !== 'km') r.problems.push('DISTANCE_UNIT: DISTANCE_UNIT must be mi or km');
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(env.LOCALE)) r.problems.push('LOCALE: LOCALE must be a language tag such as en-US');
  if (env.MAIL_FROM !== undefined && !EMAIL.test(env.MAIL_FROM.replace(/^.*<([^<>]*)>\s*$/, '$1').trim())) {
    r.problems.push('MAIL_FROM: MAIL_FROM must be a From address such as "Fixly <no-reply@example.com>"');
  }
  if (!EMAIL.test(env.SUPPORT_EMAIL)) r.problems.push('SUPPORT_EMAIL: SUPPORT_EMAIL must be an email address');
  if (r.problems.length) {
    throw new Error(`Invalid environment for this function:\n${r.problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return env;
}

export type Env = ReturnType<typeof parseEnv>;

/** Parsed once per container, at cold start: a misconfigured function fails at once, readably. */
export const env = parseEnv(process.env);

/** Cookies carry Secure everywhere but the local runtime, which is served over plain http. */
export const secureCookies = !env.LOCAL_RUNTIME;

/** The card processing rates an invoice's and a bill's charge carry (shared/domain/invoice.ts). */
export function cardFeeRates(): { percent: number; fixedCents: number } {
  return { percent: env.CARD_FEE_PERCENT, fixedCents: env.CARD_FEE_FIXED_CENTS };
}
