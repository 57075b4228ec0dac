import * as z from 'zod/mini';
import { DEFAULT_PLATFORM_FEE_PERCENT } from '../../shared/constants';
import { dispatchDefaults } from '../../shared/domain/dispatch';

const required = (name: string, what: string) =>
  z.string({ error: `${name} must ${what}` }).check(z.minLength(1, `${name} must ${what}`));

const whole = (name: string, min: number, max: number, fallback: number) =>
  z._default(
    z.coerce
      .number(`${name} must be a whole number`)
      .check(z.int(`${name} must be a whole number`), z.gte(min, `${name} must be at least ${min}`), z.lte(max, `${name} must be at most ${max}`)),
    fallback,
  );

const envSchema = z.object({
  TABLE_NAME: required('TABLE_NAME', 'name the DynamoDB table'),
  STAGE: z._default(required('STAGE', 'name the stage'), 'prod'),
  AWS_REGION: z._default(required('AWS_REGION', 'name a region'), 'us-east-1'),
  /** Only set where DynamoDB is not the AWS default endpoint (the local runtime). */
  DYNAMODB_ENDPOINT: z.optional(z.url('DYNAMODB_ENDPOINT must be a URL')),
  /** Only set where S3 is not the AWS default endpoint (the local runtime); path-style then. */
  S3_ENDPOINT: z.optional(z.url('S3_ENDPOINT must be a URL')),
  /**
   * Optional here because most functions never touch it; functions/lib/storage.ts, the one module
   * that uses it, refuses to work without it and says so.
   */
  UPLOADS_BUCKET: z.optional(required('UPLOADS_BUCKET', 'name the uploads bucket')),
  /** Only set where EventBridge Scheduler is not the AWS default endpoint (the local runtime, infra/local/scheduler.ts). */
  SCHEDULER_ENDPOINT: z.optional(z.url('SCHEDULER_ENDPOINT must be a URL')),
  /** The schedule group every timer (offer expiry, arrival grace) is created in. */
  SCHEDULE_GROUP: z._default(required('SCHEDULE_GROUP', 'name the schedule group'), 'marketplace'),
  /**
   * The role EventBridge Scheduler assumes to invoke a timer function (set by the CDK stack).
   * Optional: the local runtime does not check it and functions/lib/scheduler.ts sends a placeholder.
   */
  SCHEDULER_ROLE_ARN: z.optional(required('SCHEDULER_ROLE_ARN', 'be the ARN of the role Scheduler assumes')),
  /**
   * Prepended to a timer function's name to form the schedule's target ARN: the Lambda function ARN
   * prefix in AWS (`arn:aws:lambda:<region>:<account>:function:`, set by the CDK stack), a fixed one
   * locally. Optional here because most functions never schedule; functions/lib/scheduler.ts refuses
   * to schedule without it and says so.
   */
  TIMER_TARGET_PREFIX: z.optional(required('TIMER_TARGET_PREFIX', 'be the Lambda function ARN prefix of timer targets')),
  PLATFORM_FEE_PERCENT: z._default(
    z.coerce
      .number('PLATFORM_FEE_PERCENT must be a number')
      .check(
        z.gte(0, 'PLATFORM_FEE_PERCENT must be between 0 and 100'),
        z.lte(100, 'PLATFORM_FEE_PERCENT must be between 0 and 100'),
      ),
    DEFAULT_PLATFORM_FEE_PERCENT,
  ),
  /** Dispatch (DESIGN.md section 8): tunable per stage, so tests and demos can use short windows. */
  OFFER_SECONDS: whole('OFFER_SECONDS', 1, 3600, dispatchDefaults.offerSeconds),
  OFFERS_AT_ONCE: whole('OFFERS_AT_ONCE', 1, 10, dispatchDefaults.offersAtOnce),
  MAX_OFFERS: whole('MAX_OFFERS', 1, 100, dispatchDefaults.maxOffers),
  ARRIVAL_GRACE_SECONDS: whole('ARRIVAL_GRACE_SECONDS', 1, 24 * 3600, dispatchDefaults.arrivalGraceSeconds),
  /**
   * The geocoder behind GET /api/geocode: a Nominatim-compatible search/reverse service. Our own
   * call caches its answers, so browsers never meet its rate limits.
   */
  GEOCODER_URL: z._default(z.url('GEOCODER_URL must be a URL'), 'https://nominatim.openstreetmap.org'),
  SUPPORT_EMAIL: z._default(z.email('SUPPORT_EMAIL must be an email address'), 'support@fixly.app'),
});

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = z.safeParse(envSchema, source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment for this function:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** Parsed once per container, at cold start: a misconfigured function fails at once, readably. */
export const env = parseEnv(process.env);

/** Cookies carry Secure everywhere but the local stage, which is served over plain http. */
export const secureCookies = env.STAGE !== 'local';
