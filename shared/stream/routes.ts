import type { StreamConsumerDef } from '../route-types';
import { tallyRecords } from '../owner/routes';
import { urgentNotificationRecords } from '../realtime/routes';

export const streamStreamConsumers = [
  {
    // The table's second reader (mail, whose sends wait on SES and on leases, is the first): every
    // change that sets off work of its own off the request's path, handed to the area that does it.
    // Both parts are once-per-record however often a record comes, so a batch retried for one part
    // repeats nothing of the other.
    name: 'follow-table-changes',
    // Counting writes tallies and stats items; pushing reads subscriptions and marks deliveries.
    table: 'readwrite',
    push: true,
    filters: [tallyRecords, urgentNotificationRecords],
  },
] as const satisfies readonly StreamConsumerDef[];
