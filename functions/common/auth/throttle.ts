import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { throttleEntity, type ThrottleItem } from '../../../shared/entities';
import { dynamo, tableName } from '../clients';
import { deleteOf, ifNotExists, updateOf } from '../data/expressions';
import { tryUpdate } from '../data/write';
import { TooManyRequestsError } from '../errors';
import { declareTableUse } from '../../../shared/entities';

/**
 * Password guessing is limited by counters in the table: one item per counter, whose 15-minute
 * window opens at its first attempt (a TTL removes the item once the window is over). Every attempt takes a place in each of its counters first,
 * by an atomic ADD conditional on the counter being under its limit, so parallel guesses cannot
 * slip past a check-then-count race; an attempt that turns out right gives its place back.
 *
 * - account and address: 5 wrong passwords for one account from one address (what one person
 *   guessing gets); a success clears it, so someone who mistyped is not held back later;
 * - address: 20 wrong passwords from one address over any accounts (spraying one password over
 *   many names); a success gives back only its own place, never the failures counted before it;
 * - account: 50 wrong passwords for one account from anywhere (guessing spread over many
 *   addresses). Kept well above the first limit, so a stranger failing from elsewhere cannot lock
 *   the owner or a worker out: it takes ten addresses failing within one window to do it.
 * - device: 5 wrong passwords per device cookie (lib/auth/device-cookies.ts). An attempt that
 *   presents a valid device cookie naming its account, proof that this browser has logged in to
 *   it before, is counted against that cookie alone and never refused for the three counters
 *   above: whoever fills them from elsewhere cannot lock out a person on their own device. Past
 *   its 5, only that cookie is refused until its window ends.
 *
 * A refused attempt answers 429 with Retry-After (the end of the window) and the same message
 * whether or not the account exists; it never reaches the password check.
 */
export const WINDOW_SECONDS = 15 * 60;
export const limits = { accountAddress: 5, address: 20, account: 50, device: 5 } as const;
type Counter = keyof typeof limits;

/** The counters of an attempt without a valid device cookie, and of one with it. */
const untrusted: readonly Counter[] = ['accountAddress', 'address', 'account'];
const trusted: readonly Counter[] = ['device'];

/** The clock, replaceable by tests (the windows are computed from it; nothing sleeps). */
export const throttleClock = { now: (): number => Date.now() };

const nowSeconds = () => Math.floor(throttleClock.now() / 1000);

export interface AttemptKey {
  /** What is being guessed at: a username, an email, an owner id (lower-cased here). */
  account: string;
  /** The caller's network address. */
  address: string;
  /**
   * The id of the device cookie the attempt presents, when it is valid and names this account:
   * the attempt is then counted against it alone.
   */
  device?: string;
}

/** An account as every counter (and every device cookie) names it: case and Unicode forms aside. */
export function accountName(account: string): string {
  return account.normalize('NFKC').toLowerCase();
}

function counterKeys(scope: string, { account, address, device = '' }: AttemptKey): Record<Counter, string> {
  const name = accountName(account);
  return {
    accountAddress: `${scope}#pair#${name}#${address}`,
    address: `${scope}#address#${address}`,
    account: `${scope}#account#${name}`,
    device: `${scope}#device#${device}`,
  };
}

function refusal(retryAfterSeconds: number): TooManyRequestsError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new TooManyRequestsError(
    `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    Math.max(1, retryAfterSeconds),
  );
}

/** A counter's one item (THROTTLE#<name>#WINDOW): its current window and the attempts in it. */
const counterKey = (name: string) => throttleEntity.key(name, 'WINDOW');

/**
 * Takes one place in a counter whose window opens at its first attempt: counted while the window
 * lasts and the counter is under its limit, or a new window when the last one has ended. Returns
 * the end of the window when it is full.
 */
async function take(name: string, limit: number, now: number, windowSeconds = WINDOW_SECONDS): Promise<{ ok: true } | { ok: false; windowEnd: number }> {
  const Key = counterKey(name);
  const end = now + windowSeconds;
  const expires = end + 60;
  // Counted in the open window, or, for a counter not stored yet, its first window opens here.
  const counted = await tryUpdate(
    updateOf(throttleEntity, Key, {
      set: { entity: 'throttle', windowEnd: ifNotExists(end), expiresAt: ifNotExists(expires) },
      add: { attempts: 1 },
      if: (c) => c.or(c.notExists('attempts'), c.and(c.gt('windowEnd', now), c.lt('attempts', limit))),
    }),
  );
  if (counted) return { ok: true };
  // The window has ended: this attempt opens the next one.
  const reopened = await tryUpdate(
    updateOf(throttleEntity, Key, {
      set: { entity: 'throttle', attempts: 1, windowEnd: end, expiresAt: expires },
      if: (c) => c.le('windowEnd', now),
    }),
  );
  if (reopened) return { ok: true };
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key, ConsistentRead: true }));
  return { ok: false, windowEnd: Number((out.Item as ThrottleItem | undefined)?.windowEnd ?? end) };
}

/** Gives a place back to a window still open (an ended window has nothing to give back to). */
async function giveBack(name: string, now: number): Promise<void> {
  await tryUpdate(
    updateOf(throttleEntity, counterKey(name), {
      add: { attempts: -1 },
      if: (c) => c.and(c.gt('windowEnd', now), c.gt('attempts', 0)),
    }),
  );
}

/** One counter of a rationed action: at most `limit` in a window of `windowSeconds` from its first use. */
export interface Allowance {
  /** The counter's own name within the scope: who or what it counts (a customer, a network address). */
  key: string;
  limit: number;
  windowSeconds: number;
}

/**
 * The same counters for anything else worth rationing besides passwords (changing a saved service
 * address, listing pros): takes a place in every allowance, or none of them and throws what
 * `refuse` makes of the seconds until the full one's window ends.
 */
export async function takeAllowances(
  scope: string,
  allowances: readonly Allowance[],
  refuse: (retryAfterSeconds: number, refused: Allowance) => TooManyRequestsError,
): Promise<void> {
  const now = nowSeconds();
  const taken: string[] = [];
  for (const allowance of allowances) {
    const name = `${scope}#${allowance.key}`;
    const place = await take(name, allowance.limit, now, allowance.windowSeconds);
    if (!place.ok) {
      await Promise.all(taken.map((key) => giveBack(key, now)));
      throw refuse(Math.max(1, place.windowEnd - now), allowance);
    }
    taken.push(name);
  }
}

export interface Attempt {
  /** The password was right: give its places back, and clear this account's count from this address. */
  succeeded(): Promise<void>;
}

export const loginThrottle = {
  /**
   * Takes a place for one attempt in each of its counters, or throws 429 when one of them is full
   * (giving back the places already taken).
   */
  async begin(scope: string, key: AttemptKey): Promise<Attempt> {
    const now = nowSeconds();
    const names = counterKeys(scope, key);
    const taken: Counter[] = [];
    for (const counter of key.device ? trusted : untrusted) {
      const place = await take(names[counter], limits[counter], now);
      if (!place.ok) {
        await Promise.all(taken.map((c) => giveBack(names[c], now)));
        throw refusal(place.windowEnd - now);
      }
      taken.push(counter);
    }
    return {
      async succeeded() {
        if (key.device) {
          // The device cookie is replaced at every success: its count goes with it.
          await dynamo.send(new DeleteCommand(deleteOf(throttleEntity, counterKey(names.device))));
          return;
        }
        // The pair starts again from zero; the address and account counters only lose this attempt
        // (their earlier failures stay counted: a success is no way to reset them).
        await Promise.all([
          dynamo.send(new DeleteCommand(deleteOf(throttleEntity, counterKey(names.accountAddress)))),
          giveBack(names.account, now),
          giveBack(names.address, now),
        ]);
      },
    };
  },

  /**
   * Clears one account's count from one address, as a right password does there: the person has
   * proved who they are another way (a password-reset link mailed to their address), and should not
   * find their own browser locked out by the guesses that made them ask for it.
   */
  async forgive(scope: string, key: Pick<AttemptKey, 'account' | 'address'>): Promise<void> {
    await dynamo.send(new DeleteCommand(deleteOf(throttleEntity, counterKey(counterKeys(scope, key).accountAddress))));
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [throttleEntity], writes: [throttleEntity] });
