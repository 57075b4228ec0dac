import { useQuery } from '@tanstack/react-query';
import { paths } from './paths';

/** GET /api/admin/status (spec section 7). */
export interface AdminStatus {
  isAdmin: boolean;
  isSetup: boolean;
}

export const adminStatusKey = ['/api/admin/status'] as const;

/** The visitor's owner status; any failure reads as not admin and not set up (spec section 7). */
export function useAdminStatus(): AdminStatus {
  const { data } = useQuery<AdminStatus>({ queryKey: adminStatusKey });
  return { isAdmin: data?.isAdmin === true, isSetup: data?.isSetup === true };
}

/** The nav bar's one owner link (spec section 2, "Navigation bar"). */
export function ownerLink(status: AdminStatus): { to: string; label: string } {
  if (status.isAdmin) return { to: paths.admin, label: 'Owner Dashboard' };
  if (status.isSetup) return { to: paths.adminLogin, label: 'Owner Login' };
  return { to: paths.adminSetup, label: 'Owner Login' };
}
