import { defineEntity, on } from './define';

/**
 * Who may sign in, and the records that guard signing in: the owner account, sessions and worker
 * tokens, device cookies and the failed-login counters. Secrets are stored only as their SHA-256.
 */
/** The one owner account (OWNER / OWNER). The password hash never leaves this module's callers. */
export interface OwnerItem {
  pk: string;
  sk: string;
  entity: 'owner';
  id: string;
  username: string;
  passwordHash: string;
  /**
   * Where the owner's mail goes (new applications, documents waiting, the daily summary) and where
   * a password-reset link is sent. Given at setup; an owner set up before it was asked for has none
   * until they add it.
   */
  email?: string;
  createdAt: string;
  updatedAt: string;
}

/** A conditional put on this key makes setup happen exactly once. */
export const ownerEntity = defineEntity<OwnerItem>()({
  name: 'owner',
  key: () => ({ pk: 'OWNER', sk: 'OWNER' }),
});

export type SignInRole = 'admin' | 'worker';

/** A session (or worker token), stored by the SHA-256 of its secret; expires (TTL). */
export interface SessionItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  entity: 'session';
  role: SignInRole;
  subjectId: string;
  username: string;
  createdAt: string;
  expiresAt: number;
}

/** gsi1 SESSIONS#<role>#<subject>: every session of one person, to end them all when the password changes. */
export const sessionEntity = defineEntity<SessionItem>()({
  name: 'session',
  key: (tokenHash: string) => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' }),
  indexes: {
    of: on('gsi1', (role: string, subjectId: string, createdAt = '') => ({ gsi1pk: `SESSIONS#${role}#${subjectId}`, gsi1sk: `SESSION#${createdAt}` })),
  },
});

/** A device cookie (a browser that has logged in to an account before), by the SHA-256 of its secret; expires (TTL). */
export interface DeviceCookieItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  entity: 'device-cookie';
  /** A login's, or `track`: a browser that found a job by its number and phone (subjectId: the job). */
  role: SignInRole | 'track';
  subjectId: string;
  /** The account's name as the login counters name it (for `track`, the job's number). */
  account: string;
  createdAt: string;
  expiresAt: number;
}

/** gsi1 DEVICES#<role>#<subject>: every device cookie of one person, to end them all when the password changes. */
export const deviceCookieEntity = defineEntity<DeviceCookieItem>()({
  name: 'device-cookie',
  key: (secretHash: string) => ({ pk: `DEVICE#${secretHash}`, sk: 'DEVICE' }),
  indexes: {
    of: on('gsi1', (role: string, subjectId: string, createdAt = '') => ({ gsi1pk: `DEVICES#${role}#${subjectId}`, gsi1sk: `DEVICE#${createdAt}` })),
  },
});

/** A failed-login (or other rationed action) counter and its window; expires (TTL) once the window is over. */
export interface ThrottleItem {
  pk: string;
  sk: string;
  entity: 'throttle';
  attempts: number;
  /** Epoch seconds. */
  windowEnd: number;
  expiresAt: number;
}

/**
 * Counters, per scope and key. Never put whole: the update that takes a place creates the item,
 * setting `entity` beside the window it opens.
 */
export const throttleEntity = defineEntity<ThrottleItem>()({
  name: 'throttle',
  key: (scope: string, key: string) => ({ pk: `THROTTLE#${scope}#${key}`, sk: 'THROTTLE' }),
});

/** The counters' key builder alone (`keys.throttle`). */
export const throttleKey = throttleEntity.key;
