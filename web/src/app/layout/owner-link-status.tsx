import type { ReactNode } from 'react';
import { ownerLink, useAdminStatus } from '../../lib/admin-status';
import { QueryScope } from '../../lib/query-client';

type OwnerLink = ReturnType<typeof ownerLink>;

function WithStatus({ render }: { render: (link: OwnerLink) => ReactNode }) {
  return render(ownerLink(useAdminStatus()));
}

/** The lazily loaded half of the nav bar's owner link: the owner status query, with the tab's client. */
export default function OwnerLinkStatus({ render }: { render: (link: OwnerLink) => ReactNode }) {
  return (
    <QueryScope>
      <WithStatus render={render} />
    </QueryScope>
  );
}
