import { loginThrottle } from '../common/auth/throttle';
import { TooManyRequestsError } from '../common/errors';

/**
 * 60 wrong passwords for the account, 6 from each of 10 addresses, as the throttle counts them
 * (a refused attempt counts nothing, as in the handler).
 */
export async function strangersFail(scope: string, account: string): Promise<void> {
  // A network of its own for each call: addresses shared with another test would be full already.
  const net = `172.${16 + Math.floor(Math.random() * 16)}.${Math.floor(Math.random() * 250)}`;
  for (let a = 1; a <= 10; a++) {
    for (let i = 0; i < 6; i++) {
      await loginThrottle.begin(scope, { account, address: `${net}.${a}` }).catch((error: unknown) => {
        if (!(error instanceof TooManyRequestsError)) throw error;
      });
    }
  }
}
