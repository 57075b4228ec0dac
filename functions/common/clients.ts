import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GeoPlacesClient } from '@aws-sdk/client-geo-places';
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
 * Secrets Manager, read through functions/common/secrets.ts (which caches). It answers in milliseconds:
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
 * How long SES may take over one mail, every try included, so a send ends inside the function that
 * claimed it. send-mail has 10 s (infra/function-defaults.ts); SES answers in well under a second,
 * so a call without an answer after 2 s is stuck. Worst case: 2 tries × (1 s to connect + 2 s for
 * the answer) + one backoff of at most 1 s (the SDK's throttling base) = 7 s, leaving 3 s for the
 * claim, the suppression check and marking the mail sent. The sending lease (60 s) is far longer, so
 * a claim is never taken over while its send can still reach SES (functions/mail/send.ts stops
 * any try from starting after this limit, even one a Retry-After hint would push later).
 */
export const SES_MAX_ATTEMPTS = 2;
export const SES_CONNECTION_TIMEOUT_MS = 1000;
export const SES_REQUEST_TIMEOUT_MS = 2000;
/** The SDK's longest pause before its one retry (its throttling base, 1 s, times a random fraction). */
const SES_RETRY_DELAY_MS = 1000;
export const SES_SEND_LIMIT_MS = SES_MAX_ATTEMPTS * (SES_CONNECTION_TIMEOUT_MS + SES_REQUEST_TIMEOUT_MS) + (SES_MAX_ATTEMPTS - 1) * SES_RETRY_DELAY_MS;

/**
 * SES (v2), for the mail senders alone (send-mail and sweep-mail-outbox, through functions/mail/):
 * made on its first use and kept for the container's life. A function rather than a constant because
 * every function imports this module, and a constant built here stays in every bundle (the bundler
 * cannot prove building it is free of side effects), pulling the SES SDK into ninety functions that
 * never send mail.
 */
export function ses(): SESv2Client {
  sesClient ??= new SESv2Client({
    region: env.AWS_REGION,
    endpoint: env.SES_ENDPOINT,
    maxAttempts: SES_MAX_ATTEMPTS,
    requestHandler: { requestTimeout: SES_REQUEST_TIMEOUT_MS, throwOnRequestTimeout: true, connectionTimeout: SES_CONNECTION_TIMEOUT_MS },
  });
  return sesClient;
}

let geoPlacesClient: GeoPlacesClient | undefined;

/**
 * How long one geocoder call may take, every try included: the answer feeds a type-ahead, and the
 * form works without it, so a slow answer is worth less than none.
 */
export const GEOCODER_TIMEOUT_MS = 3000;

/**
 * Amazon Location's Places API (v2), for the two geocode functions alone (functions/catalog/):
 * made on its first use and kept for the container's life, a function rather than a constant for
 * the reason `ses` gives. One retry (a throttled or failed try) fits in GEOCODER_TIMEOUT_MS, which
 * the caller enforces over the whole call.
 */
export function geoPlaces(): GeoPlacesClient {
  geoPlacesClient ??= new GeoPlacesClient({
    region: env.AWS_REGION,
    endpoint: env.GEO_PLACES_ENDPOINT,
    maxAttempts: 2,
    requestHandler: { requestTimeout: GEOCODER_TIMEOUT_MS, throwOnRequestTimeout: true, connectionTimeout: 1000 },
  });
  return geoPlacesClient;
}
