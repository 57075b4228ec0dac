import { useQuery } from '@tanstack/react-query';
import type { AdminStatus } from './owner-link';

export { ownerLink, type AdminStatus } from './owner-link';

export const adminStatusKey = ['/api/admin/status'] as const;

/** The visitor's owner status; any failure reads as not admin and not set up (spec section 7). */
export function useAdminStatus(): AdminStatus {
  const { data } = useQuery<AdminStatus>({ queryKey: adminStatusKey });
  return { isAdmin: data?.isAdmin === true, isSetup: data?.isSetup === true };
}
