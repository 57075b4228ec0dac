import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app/routes';
import { startOfflineApp } from './lib/offline-app';
import './index.css';

// The service worker (offline shell, push) registers after the load event; the install offer is kept.
startOfflineApp();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const app = (
  <StrictMode>
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  </StrictMode>
);

// A page prerendered at build time (web/vite-prerender.ts) is hydrated where it stands, so nothing
// moves and its largest paint was the HTML's. It was rendered for its bare path: with a query
// (/track?id=…, /book?category=…) or when the service worker answered another route with a kept
// page, the first render differs, so the app renders afresh and replaces the markup instead.
const prerenderedFor = root.dataset.prerendered;
if (prerenderedFor !== undefined && prerenderedFor === `${location.pathname}${location.search}`) {
  // After the HTML's first paint, and in a transition so React hydrates in slices that leave the
  // main thread free between them (a tap is handled within a slice, not after the whole tree).
  requestAnimationFrame(() => setTimeout(() => startTransition(() => void hydrateRoot(root, app)), 0));
} else {
  createRoot(root).render(app);
}
