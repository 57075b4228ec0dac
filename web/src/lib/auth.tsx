import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import type { AdminLoginInput, CurrentUser } from '../../../shared/schemas/auth';
import { ApiError, api } from './api';
import { queryKeys } from './query-keys';

/**
 * The cookie session: unknown while the first check runs,
 * then signed in with a user or signed out. Login sets the user; logout always clears it, even
 * when the call fails. Mounted only around the routes that need it (owner screens, change
 * password), so the landing page never loads it.
 */
export type AuthStatus = 'loading' | 'signed-in' | 'signed-out';

export interface AuthContextValue {
  status: AuthStatus;
  user: CurrentUser | null;
  /** POST /api/admin/login; sets the user. Rethrows the failure (an ApiError) to the caller. */
  login(input: AdminLoginInput): Promise<CurrentUser>;
  /** The user a call that started a session (the owner setup) answered with. */
  signedIn(user: CurrentUser): void;
  /** POST /api/admin/logout. The user is cleared either way; resolves false when the call failed. */
  logout(): Promise<boolean>;
  /** Re-reads the session (e.g. after a password change). */
  refresh(): Promise<void>;
}

interface MeResponse {
  ok?: boolean;
  user?: CurrentUser | null;
}

/** GET /api/auth/me: a 401, a not-ok answer or no user means signed out; a failure is logged and reads the same. */
async function fetchSession(): Promise<CurrentUser | null> {
  try {
    const me: MeResponse | null = await api('GET /api/auth/me');
    return me?.ok && me.user ? me.user : null;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) console.warn('Session check failed', error);
    return null;
  }
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useQuery({ queryKey: queryKeys.currentUser, queryFn: fetchSession, refetchOnMount: 'always' });

  const setUser = useCallback(
    (user: CurrentUser | null) => queryClient.setQueryData<CurrentUser | null>(queryKeys.currentUser, user),
    [queryClient],
  );
  // The nav bar's owner link reads the admin status: every sign-in or sign-out changes it.
  const refreshAdminStatus = useCallback(() => queryClient.invalidateQueries({ queryKey: queryKeys.adminStatus }), [queryClient]);

  const value = useMemo<AuthContextValue>(
    () => ({
      status: session.isPending ? 'loading' : session.data ? 'signed-in' : 'signed-out',
      user: session.data ?? null,
      async login(input) {
        const { user } = await api('POST /api/admin/login', { body: input });
        setUser(user);
        await refreshAdminStatus();
        return user;
      },
      signedIn(user) {
        setUser(user);
        void refreshAdminStatus();
      },
      async logout() {
        let ok = true;
        try {
          await api('POST /api/admin/logout');
        } catch (error) {
          console.warn('Logout failed', error);
          ok = false;
        }
        setUser(null);
        await refreshAdminStatus();
        return ok;
      },
      async refresh() {
        await queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
      },
    }),
    [session.isPending, session.data, setUser, refreshAdminStatus, queryClient],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** A layout route: the routes under it share one AuthProvider. */
export function AuthLayout() {
  return (
    <AuthProvider>
      <Outlet />
    </AuthProvider>
  );
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used within an AuthProvider');
  return value;
}
