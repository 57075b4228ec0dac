/*
 * The callers' shapes sit apart from caller.ts, which tells who is calling, so that the customer
 * cookie's module can name the customer caller while caller.ts asks it who the customer is.
 */

/**
 * Who is calling, as far as the route's access needed to establish (shared/routes.ts `Access`):
 * the one identity handlers see. `id` is the person's own id (the owner's account, the worker,
 * the customer identity of the anonymous cookie); `sessionSecret` names the very session the call
 * presented, so a logout or a password change can act on it.
 */
export type Caller =
  | { role: 'anonymous' }
  | { role: 'customer'; id: string }
  | { role: 'owner'; id: string; username: string; sessionSecret: string }
  | { role: 'worker'; id: string; username: string; sessionSecret: string };

export type OwnerCaller = Extract<Caller, { role: 'owner' }>;
export type WorkerCaller = Extract<Caller, { role: 'worker' }>;
export type CustomerCaller = Extract<Caller, { role: 'customer' }>;
/** A person signed in with a password: the owner or a worker. */
export type SignedInCaller = OwnerCaller | WorkerCaller;
