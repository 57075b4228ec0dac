import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { clearedOwnerSessionCookie, ownerSessionSecret } from '../common/auth/caller';
import { sessions } from '../common/auth/sessions';
import { reply } from '../common/http';

/**
 * Ends the session server-side (a copied cookie stops working too) and clears the cookie.
 * Idempotent: without a session it just clears the cookie. The route may only delete, not read.
 */
export async function endOwnerSession(event: APIGatewayProxyEventV2) {
  const secret = ownerSessionSecret(event);
  if (secret) await sessions.end(secret);
  return reply(200, { ok: true }, { cookies: [clearedOwnerSessionCookie()] });
}
