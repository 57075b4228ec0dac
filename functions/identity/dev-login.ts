import type { CurrentUser } from '../../shared/schemas/auth';
import { CUSTOMER_COOKIE } from '../../shared/constants';
import { routeByName } from '../../shared/routes';
import { devLoginSchema } from '../../shared/schemas/auth';
import { ownerSessionCookie } from '../common/auth/caller';
import { sessions } from '../common/auth/sessions';
import { serializeCookie } from '../common/cookies';
import { env, secureCookies } from '../common/env';
import { NotFoundError, ValidationError } from '../common/errors';
import { http, reply } from '../common/http';
import { customersRepo } from '../common/auth/customers';
import { isId } from '../../shared/schemas/id';

const ONE_YEAR = 365 * 24 * 60 * 60;

/**
 * The local runtime only: sign in as anyone to try a screen. The CDK stack never deploys the route
 * (it is `localRuntimeOnly` in the manifest, whatever the stage), and the handler itself answers
 * only where the local runtime set LOCAL_RUNTIME: a stage name, which anyone can give a deployed
 * stack, opens nothing.
 */
export const handler = http(routeByName('dev-login'), devLoginSchema, async ({ body }) => {
  if (!env.LOCAL_RUNTIME) throw new NotFoundError('Not found');
  const user: CurrentUser = { id: body.userId, role: body.role, username: body.username };

  switch (body.role) {
    case 'admin': {
      const { secret } = await sessions.start('admin', body.userId, body.username);
      return reply(200, { ok: true, user }, { cookies: [ownerSessionCookie(secret)] });
    }
    case 'worker': {
      const { secret } = await sessions.start('worker', body.userId, body.username);
      return { ok: true, user, token: secret } as const;
    }
    case 'customer': {
      if (!isId(body.userId)) {
        const message = 'A customer id is 22 characters: letters, digits, - and _';
        throw new ValidationError(message, { userId: message });
      }
      // Customer cookies count only for identities the server issued: this one is issued here.
      await customersRepo.issueAs(body.userId);
      const cookie = serializeCookie(CUSTOMER_COOKIE, body.userId, { maxAgeSeconds: ONE_YEAR, secure: secureCookies });
      return reply(200, { ok: true, user }, { cookies: [cookie] });
    }
  }
});
