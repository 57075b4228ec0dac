import { paths } from './paths';

/** The answer of GET /api/admin/status. */
export interface AdminStatus {
  isAdmin: boolean;
  isSetup: boolean;
}

/**
 * The nav bar's one owner link. Apart from the status query
 * (admin-status.ts), so the nav bar in the first load does not bring TanStack Query with it.
 */
export function ownerLink(status: AdminStatus): { to: string; label: string } {
  if (status.isAdmin) return { to: paths.admin, label: 'Owner Dashboard' };
  if (status.isSetup) return { to: paths.adminLogin, label: 'Owner Login' };
  return { to: paths.adminSetup, label: 'Owner Login' };
}
