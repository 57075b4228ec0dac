import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ownerStatusHeard } from './owner-session';
import type { AdminStatus } from './owner-link';
import { queryKeys } from './query-keys';

export { ownerLink, type AdminStatus } from './owner-link';

/** The visitor's owner status; any failure reads as not admin and not set up, so the nav bar never offers what it cannot check. */
export function useAdminStatus(): AdminStatus {
  const { data } = useQuery<AdminStatus>({ queryKey: queryKeys.adminStatus });
  const isAdmin = data?.isAdmin === true;
  // Only an answer counts: while the call is pending the visitor is neither.
  useEffect(() => {
    if (data !== undefined) ownerStatusHeard(isAdmin);
  }, [data, isAdmin]);
  return { isAdmin, isSetup: data?.isSetup === true };
}
