import { inject } from 'vitest';
import { localFunctionEnv } from '../local/stack';

// Handlers parse their environment at import, so it is in place before any test imports one.
Object.assign(
  process.env,
  localFunctionEnv(
    inject('dynamoEndpoint'),
    inject('s3Endpoint'),
    inject('schedulerEndpoint'),
    { apiUrl: inject('stripeEndpoint') },
    inject('websocketEndpoint'),
    // Secrets only by id: the handlers read them from the setup's local Secrets Manager.
    { endpoint: inject('secretsEndpoint'), ids: inject('secretIds') },
    // Mail goes to the setup's local SES; its links open the site the local runtime serves by default.
    { sesEndpoint: inject('sesEndpoint'), siteUrl: 'http://localhost:3000' },
  ),
);

// Every handler test calls from the sample events' one address into one shared table, as a crowd
// behind one address would: the creation limits get room for it. Their own tests set 1.
process.env.CREATION_LIMIT_SCALE ??= '1000';
