import { routeByName } from '../../shared/routes';
import { http } from '../common/http';
import { payoutStatusOf } from './payments';

/** The worker's payout standing: Stripe Connect onboarding, shares held for them, shares sent. */
export const handler = http(routeByName('get-payout-status'), async ({ caller }) => payoutStatusOf(caller.worker));
