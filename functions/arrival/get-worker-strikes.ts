import { routeByName } from '../../shared/routes';
import { http } from '../common/http';
import { strikeRecordOf } from './strikes';

/** The pro's own strike record, newest first, and where their account stands (any status may read it). */
export const handler = http(routeByName('get-worker-strikes'), async ({ caller }) => strikeRecordOf(caller.worker));
