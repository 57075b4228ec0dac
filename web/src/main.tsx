import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { NewVersionBoundary } from './app/new-version-boundary';
import { hydratesAt } from './app/prerendered-pages';
import { startAddressApiGets } from './app/route-data';
import { AppRoutes } from './app/routes';
import { watchForNewVersion } from './lib/new-version';
import { startOfflineApp } from './lib/offline-app';
import './index.css';

// The service worker (offline shell, push) registers after the load event; the install offer is kept.
startOfflineApp();
// A lazy chunk that a release removed while this tab was open: reload once for the new version.
watchForNewVersion();
startAddressApiGets(location);
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The boundary out here covers the lazy parts of the frame (nav bar, toasts); each screen has its own.
const app = (
  <StrictMode>
    <NewVersionBoundary>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </NewVersionBoundary>
  </StrictMode>
);

// A page prerendered at build time (web/vite-prerender.ts) is hydrated where it stands, so nothing
// moves and its largest paint was the HTML's. It was rendered for its bare path: where the first
// render would differ (the service worker answering another route with a kept page), the app
// renders afresh and replaces the markup instead.
// Either way after the HTML's first paint, and in a transition, so React works in slices that leave
// the main thread free between them (a tap is handled within a slice, not after the whole tree).
const prerenderedFor = root.dataset.prerendered;
if (prerenderedFor === undefined) {
  createRoot(root).render(app);
} else {
  const start = hydratesAt(prerenderedFor, location) ? () => void hydrateRoot(root, app) : () => createRoot(root).render(app);
  requestAnimationFrame(() => setTimeout(() => startTransition(start), 0));
}
