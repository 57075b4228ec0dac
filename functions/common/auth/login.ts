import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { clientNetwork } from '../client-address';
import { deviceCookies } from './device-cookies';
import type { SessionRole } from './sessions';
import { loginThrottle } from './throttle';

/** The counters' scope of each login route (lib/auth/throttle.ts). */
export const LOGIN_SCOPE: Record<SessionRole, string> = { admin: 'admin-login', worker: 'worker-login' };

export interface LoginAttempt {
  /**
   * The password was right: the throttle forgets what it should, and the browser gets a new device
   * cookie for the account (the one it presented, if any, ends). Returns its Set-Cookie header.
   */
  succeeded(subjectId: string): Promise<string>;
}

/**
 * Takes the attempt's place in the login counters before any password is checked, or throws 429:
 * against its device cookie alone when it presents a valid one for this account, otherwise per
 * name, per address and per both, whether or not the name exists.
 */
export async function beginLogin(
  event: Pick<APIGatewayProxyEventV2, 'cookies' | 'headers' | 'requestContext'>,
  role: SessionRole,
  account: string,
): Promise<LoginAttempt> {
  const device = await deviceCookies.presented(event, role, account);
  const attempt = await loginThrottle.begin(LOGIN_SCOPE[role], {
    account,
    address: clientNetwork(event),
    ...(device ? { device: device.id } : {}),
  });
  return {
    async succeeded(subjectId) {
      await attempt.succeeded();
      if (device) await deviceCookies.end(device);
      return deviceCookies.issue(role, subjectId, account);
    },
  };
}
