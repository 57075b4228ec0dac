import * as z from 'zod/mini';
import { DEFAULT_PLATFORM_FEE_PERCENT } from '../../shared/constants';

const required = (name: string, what: string) =>
  z.string({ error: `${name} must ${what}` }).check(z.minLength(1, `${name} must ${what}`));

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
  PLATFORM_FEE_PERCENT: z._default(
    z.coerce
      .number('PLATFORM_FEE_PERCENT must be a number')
      .check(
        z.gte(0, 'PLATFORM_FEE_PERCENT must be between 0 and 100'),
        z.lte(100, 'PLATFORM_FEE_PERCENT must be between 0 and 100'),
      ),
    DEFAULT_PLATFORM_FEE_PERCENT,
  ),
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
