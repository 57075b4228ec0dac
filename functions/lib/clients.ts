import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { env } from './env';

/** Created once per container; the endpoint is the only thing the local runtime changes. */
export const dynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: env.AWS_REGION,
    endpoint: env.DYNAMODB_ENDPOINT,
    requestHandler: { requestTimeout: env.DYNAMODB_TIMEOUT_MS, throwOnRequestTimeout: true, connectionTimeout: env.DYNAMODB_TIMEOUT_MS },
  }),
  { marshallOptions: { removeUndefinedValues: true } },
);

export const tableName = env.TABLE_NAME;

/**
 * Secrets Manager, read through functions/lib/secrets.ts (which caches). It answers in milliseconds:
 * a call still open after a second is stuck, and two tries at most keep a cold read within ~2 s of
 * a function's 10 s, leaving the rest for the work (and Stripe) the secret was read for.
 */
export const secretsManager = new SecretsManagerClient({
  region: env.AWS_REGION,
  endpoint: env.SECRETS_MANAGER_ENDPOINT,
  maxAttempts: 2,
  requestHandler: { requestTimeout: 1000, throwOnRequestTimeout: true, connectionTimeout: 1000 },
});

let sesClient: SESv2Client | undefined;

/**
 * SES (v2), for the mail sender alone (functions/send-mail.ts through functions/lib/mail/): made on
 * its first use and kept for the container's life. A function rather than a constant because every
 * function imports this module, and a constant built here stays in every bundle (the bundler cannot
 * prove building it is free of side effects), pulling the SES SDK into ninety functions that never
 * send mail. Two tries and a short timeout: a send that fails is tried again by the table stream,
 * which must not wait on a stuck call for the function's whole time.
 */
export function ses(): SESv2Client {
  sesClient ??= new SESv2Client({
    region: env.AWS_REGION,
    endpoint: env.SES_ENDPOINT,
    maxAttempts: 2,
    requestHandler: { requestTimeout: 5000, throwOnRequestTimeout: true, connectionTimeout: 2000 },
  });
  return sesClient;
}
