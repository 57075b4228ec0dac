import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { NewVersionBoundary } from '../new-version-boundary';
import { RealtimeHost } from '../notifications/realtime-hosts';
import { ToasterHost } from '../../components/ui/toaster-host';
import { BackgroundVideo } from './background-video';
import { Footer } from './footer';
import { NavBar } from './nav-bar';
import { PageLoading } from '../../components/layout/page-loading';

/**
 * The frame of every public page: skip link, nav bar, background video, footer, toasts, the realtime
 * socket. A screen whose chunk a new release removed shows the new-version page in its place.
 */
export function PublicLayout() {
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-screen flex-col text-slate-100">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-amber-400 px-4 py-2 font-semibold text-slate-950 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to content
      </a>
      <BackgroundVideo />
      <NavBar />
      {/* At least a screen tall, so the footer starts below the fold and a page filling in (skeletons, lazy parts) moves nothing visible. */}
      <main id="main" tabIndex={-1} className="min-h-screen flex-1 outline-none">
        <NewVersionBoundary resetKey={pathname}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </NewVersionBoundary>
      </main>
      <Footer />
      <ToasterHost />
      <RealtimeHost />
    </div>
  );
}
