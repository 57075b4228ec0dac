import { routeByName } from '../../shared/routes';
import { strikeDecisionSchema } from '../../shared/schemas/strikes';
import { toStrikeView } from './data/penalties';
import { http } from '../common/http';
import { decideStrike } from './strikes';

/** {id} is a strike, standing or appealed: kept for good, with the owner's note. A decided strike is 409. */
export const handler = http(routeByName('uphold-strike'), strikeDecisionSchema, async ({ params, body, caller }) =>
  toStrikeView(await decideStrike(params.id, 'uphold', body.note, caller)),
);
