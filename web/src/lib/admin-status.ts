import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ownerStatusHeard } from './owner-session';
import type { AdminStatus } from './owner-link';

export { ownerLink, type AdminStatus } from './owner-link';

export const adminStatusKey = ['/api/admin/status'] as const;

/** The visitor's owner status; any failure reads as not admin and not set up (spec section 7). */
export function useAdminStatus(): AdminStatus {
  const { data } = useQuery<AdminStatus>({ queryKey: adminStatusKey });
  const isAdmin = data?.isAdmin === true;
  // Only an answer counts: while the call is pending the visitor is neither.
  useEffect(() => {
    if (data !== undefined) ownerStatusHeard(isAdmin);
  }, [data, isAdmin]);
  return { isAdmin, isSetup: data?.isSetup === true };
}
