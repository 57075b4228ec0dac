import * as z from 'zod';
import { DEFAULT_PLATFORM_FEE_PERCENT } from '../../shared/constants';

const envSchema = z.object({
  TABLE_NAME: z.string().min(1, 'TABLE_NAME must name the DynamoDB table'),
  STAGE: z.string().min(1).default('prod'),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  /** Only set where DynamoDB is not the AWS default endpoint (the local runtime). */
  DYNAMODB_ENDPOINT: z.url('DYNAMODB_ENDPOINT must be a URL').optional(),
  PLATFORM_FEE_PERCENT: z.coerce
    .number('PLATFORM_FEE_PERCENT must be a number')
    .min(0, 'PLATFORM_FEE_PERCENT must be between 0 and 100')
    .max(100, 'PLATFORM_FEE_PERCENT must be between 0 and 100')
    .default(DEFAULT_PLATFORM_FEE_PERCENT),
  SUPPORT_EMAIL: z.email('SUPPORT_EMAIL must be an email address').default('support@fixly.app'),
});

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
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
