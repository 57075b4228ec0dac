import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { createQueryClient } from './api';

/**
 * The tab's one query client. TanStack Query is not in the home page's first load: the screens get
 * it through QueryLayout (a lazy layout route), and the parts of the frame that use it (the nav's
 * owner link, the realtime corner, the home page's request section) load after the first paint with
 * their own provider of this same client, so they share one cache.
 */
export const queryClient = createQueryClient();

export function QueryScope({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/** The layout route of every screen that reads the API. */
export default function QueryLayout() {
  return (
    <QueryScope>
      <Outlet />
    </QueryScope>
  );
}
