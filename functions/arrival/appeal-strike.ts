import { routeByName } from '../../shared/routes';
import { strikeAppealSchema } from '../../shared/schemas/strikes';
import { toStrikeView } from './data/penalties';
import { http } from '../common/http';
import { appealStrike } from './strikes';

/** {id} is one of the pro's own strikes, still standing: appealed once; another's is 404, a second appeal 409. */
export const handler = http(routeByName('appeal-strike'), strikeAppealSchema, async ({ params, body, caller }) =>
  toStrikeView(await appealStrike(caller.worker, params.id, body.note)),
);
