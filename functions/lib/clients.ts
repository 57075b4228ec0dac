import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
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
