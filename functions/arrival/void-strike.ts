import { routeByName } from '../../shared/routes';
import { strikeDecisionSchema } from '../../shared/schemas/strikes';
import { toStrikeView } from './data/penalties';
import { http } from '../common/http';
import { decideStrike } from './strikes';

/**
 * {id} is a strike, standing or appealed: voided with the owner's note, and off the pro's count.
 * A suspension stays until the owner reinstates. A decided strike is 409.
 */
export const handler = http(routeByName('void-strike'), strikeDecisionSchema, async ({ params, body, caller }) =>
  toStrikeView(await decideStrike(params.id, 'void', body.note, caller)),
);
