import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Access } from '../../shared/routes';
import { newId } from '../common/ids';
import { markIssued } from './customers';
import { setUpOwnerSessionCookie } from './owner';
import { workerToken } from './workers';

/**
 * The callers a route admits, as functions/every-route/authorization.test.ts walks them: the hostile-input
 * tests call every route as someone it lets in, so refusals come from the input, not the access.
 */
export type AdmittedCaller = 'nobody' | 'customer' | 'owner' | 'worker';

export function admittedCallers(access: Access): AdmittedCaller[] {
  switch (access) {
    case 'public':
      return ['nobody', 'customer'];
    case 'anyone':
      return ['nobody', 'customer', 'owner', 'worker'];
    case 'signed-in':
      return ['owner', 'worker'];
    case 'customer':
      return ['customer'];
    case 'admin':
      return ['owner'];
    case 'applicant':
    case 'worker':
    case 'active-worker':
      return ['worker'];
  }
}

export interface CallerCredentials {
  cookies?: string[];
  authorization?: string;
}

/**
 * Fresh credentials of that kind (the worker is an existing active worker's id; the customer's
 * identity is stored as issued, as a first booking would have).
 */
export async function credentialsOf(kind: AdmittedCaller, activeWorkerId: string, customerId = newId()): Promise<CallerCredentials> {
  switch (kind) {
    case 'nobody':
      return {};
    case 'customer':
      return { cookies: [await markIssued(customerId)] };
    case 'owner':
      return { cookies: [await setUpOwnerSessionCookie()] };
    case 'worker':
      return { authorization: `Bearer ${await workerToken(activeWorkerId)}` };
  }
}

export function withCredentials(event: APIGatewayProxyEventV2, { cookies, authorization }: CallerCredentials): APIGatewayProxyEventV2 {
  return {
    ...event,
    cookies: [...(event.cookies ?? []), ...(cookies ?? [])],
    headers: { ...event.headers, ...(authorization ? { authorization } : {}) },
  };
}
