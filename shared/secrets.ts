/**
 * The secrets the functions read at run time (functions/common/secrets.ts), what each holds, and the
 * environment variable that tells a function a secret's id. Shared by the functions, the CDK stack
 * (which sets the ids and grants each function the secrets it needs, no other) and the local runtime
 * (which keeps them in its own Secrets Manager, infra/local/secrets-manager.ts).
 */
export type SecretName = 'stripe' | 'vapid' | 'origin' | 'setup';

export const secretIdVariables = {
  stripe: 'STRIPE_SECRET_ID',
  vapid: 'VAPID_SECRET_ID',
  origin: 'ORIGIN_SECRET_ID',
  setup: 'SETUP_SECRET_ID',
} as const satisfies Record<SecretName, string>;

/** The JSON fields of each secret. */
export const secretFields = {
  stripe: ['secretKey', 'webhookSecret', 'connectWebhookSecret'],
  vapid: ['publicKey', 'privateKey'],
  origin: ['value'],
  setup: ['code'],
} as const satisfies Record<SecretName, readonly string[]>;

export const secretNames = Object.keys(secretIdVariables) as SecretName[];
