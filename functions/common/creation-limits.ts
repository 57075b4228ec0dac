import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { takeAllowances, type Allowance } from './auth/throttle';
import { clientNetwork } from './client-address';
import { env } from './env';
import { TooManyRequestsError } from './errors';

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/**
 * What one network address and one person may create, per kind. Each thing created costs someone
 * else something: a job offers itself to pros and wakes their phones, an upload stores bytes, an
 * application lands in the owner's queue. The numbers leave room for a household or an office
 * behind one address (a booking, a request and a hire in a row are three of a customer's ten an
 * hour, several people in one office each booking at once) and none for a script: an address gets
 * a burst of 10 jobs a minute and 30 an hour.
 */
export const creationLimits = {
  job: { address: [{ limit: 10, windowSeconds: MINUTE }, { limit: 30, windowSeconds: HOUR }], person: { limit: 10, windowSeconds: HOUR } },
  upload: { address: [{ limit: 30, windowSeconds: HOUR }], person: { limit: 30, windowSeconds: HOUR } },
  application: { address: [{ limit: 5, windowSeconds: HOUR }], person: undefined },
  'push-subscription': { address: [{ limit: 20, windowSeconds: HOUR }], person: { limit: 10, windowSeconds: HOUR } },
} as const;

export type CreationKind = keyof typeof creationLimits;

const what: Record<CreationKind, string> = {
  job: 'requests',
  upload: 'uploads',
  application: 'applications',
  'push-subscription': 'notification sign-ups',
};

function refusal(kind: CreationKind) {
  return (retryAfterSeconds: number): TooManyRequestsError => {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    const wait = `${minutes} minute${minutes === 1 ? '' : 's'}`;
    return new TooManyRequestsError(
      `Too many ${what[kind]} from this connection in a short time. Please wait ${wait} and try again; if you need help now, contact us.`,
      retryAfterSeconds,
    );
  };
}

/**
 * Takes one place for a creation from the caller's address (and the person, when known), or throws
 * 429 with Retry-After. Called after the input is validated, so a refused form costs nothing.
 */
export async function takeCreation(
  kind: CreationKind,
  event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>,
  person?: string,
): Promise<void> {
  const rule = creationLimits[kind];
  const scale = env.CREATION_LIMIT_SCALE;
  const address = clientNetwork(event);
  const allowances: Allowance[] = rule.address.map((a) => ({ key: `address#${address}#${a.windowSeconds}`, limit: a.limit * scale, windowSeconds: a.windowSeconds }));
  if (person && rule.person) allowances.push({ key: `person#${person}`, limit: rule.person.limit * scale, windowSeconds: rule.person.windowSeconds });
  await takeAllowances(`create#${kind}`, allowances, refusal(kind));
}
