import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { deviceCookieEntity, type DeviceCookieItem } from '../../../shared/entities';
import { routeByName } from '../../../shared/routes';
import { dynamo, tableName } from '../clients';
import { readCookies, serializeCookie } from '../cookies';
import { deleteOf, isNew, putOf } from '../data/expressions';
import { secureCookies } from '../env';
import { deleteRowsOf } from './person-rows';
import type { SessionRole } from './sessions';
import { accountName } from './throttle';
import { hashSecret, newSecret } from './tokens';
import { declareTableUse } from '../../../shared/entities';

/**
 * Device cookies, as OWASP's "Slow Down Online Guessing Attacks with Device Cookies" describes them:
 * a successful login leaves in that browser an HttpOnly cookie naming the account, and a later
 * login for that account that presents it is counted against the cookie alone (lib/auth/throttle.ts),
 * so strangers failing logins for the name from anywhere cannot lock its owner out of their own
 * device. The cookie is a 256-bit secret, stored only as its SHA-256 with a TTL, like a session;
 * it proves nothing but an earlier login from that browser and opens nothing by itself.
 */
export const DEVICE_COOKIE_TTL_SECONDS = 180 * 24 * 60 * 60;

/**
 * Whose device cookie: a login's, or `track`, earned by finding a job by its number and phone at
 * /track, which spares that browser the lockouts strangers guessing at the number can fill.
 */
export type DeviceRole = SessionRole | 'track';

/** One cookie per job number for `track`: a browser may follow several jobs. */
const cookieName = (role: DeviceRole, account: string): string =>
  role === 'track' ? `track_device_${account.toUpperCase()}` : { admin: 'owner_device', worker: 'worker_device' }[role];

/** Sent only to the route it serves: no other request carries it. */
const cookiePath: Record<DeviceRole, string> = {
  admin: routeByName('login-admin').path,
  worker: routeByName('login-worker').path,
  track: routeByName('find-tracked-request').path,
};

/** A valid device cookie a login presents: its id is the hash the table and its counter know it by. */
export interface PresentedDevice {
  id: string;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export const deviceCookies = {
  /** A new device cookie for the person who just logged in as `account`: its Set-Cookie header. */
  async issue(role: DeviceRole, subjectId: string, account: string): Promise<string> {
    const secret = newSecret();
    const createdAt = new Date().toISOString();
    const item: DeviceCookieItem = {
      ...deviceCookieEntity.key(hashSecret(secret)),
      ...deviceCookieEntity.indexes.of.key(role, subjectId, createdAt),
      entity: 'device-cookie',
      role,
      subjectId,
      account: accountName(account),
      createdAt,
      expiresAt: nowSeconds() + DEVICE_COOKIE_TTL_SECONDS,
    };
    await dynamo.send(new PutCommand(putOf(deviceCookieEntity, item, isNew)));
    return serializeCookie(cookieName(role, account), secret, {
      maxAgeSeconds: DEVICE_COOKIE_TTL_SECONDS,
      secure: secureCookies,
      path: cookiePath[role],
    });
  },

  /**
   * The device cookie of this request, when it is live and names this account; a cookie for
   * another name, an expired, unknown or malformed one is no device cookie at all.
   */
  async presented(event: Pick<APIGatewayProxyEventV2, 'cookies'>, role: DeviceRole, account: string): Promise<PresentedDevice | undefined> {
    const secret = readCookies(event)[cookieName(role, account)];
    if (!secret || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return undefined;
    const id = hashSecret(secret);
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: deviceCookieEntity.key(id) }));
    const item = out.Item as DeviceCookieItem | undefined;
    if (!item || item.role !== role || item.expiresAt <= nowSeconds() || item.account !== accountName(account)) return undefined;
    return { id };
  },

  async end(device: PresentedDevice): Promise<void> {
    await dynamo.send(new DeleteCommand(deleteOf(deviceCookieEntity, deviceCookieEntity.key(device.id))));
  },

  /** Ends every device cookie of a person: those earned with a password they have since changed. */
  async endAllOf(role: SessionRole, subjectId: string): Promise<void> {
    await deleteRowsOf(deviceCookieEntity.indexes.of.range(role, subjectId));
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [deviceCookieEntity], writes: [deviceCookieEntity] });
