import { inject } from 'vitest';
import { localFunctionEnv } from '../local/stack';

// Handlers parse their environment at import, so it is in place before any test imports one.
Object.assign(
  process.env,
  localFunctionEnv(inject('dynamoEndpoint'), inject('s3Endpoint'), inject('schedulerEndpoint'), {
    apiUrl: inject('stripeEndpoint'),
    secretKey: inject('stripeSecretKey'),
    webhookSecret: inject('stripeWebhookSecret'),
  }, inject('websocketEndpoint')),
);
