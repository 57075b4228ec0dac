import { lazy, Suspense, useEffect, useId, useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { ownerLink } from '../../lib/owner-link';
import { cn } from '../../lib/cn';
import { paths, patterns } from '../../lib/paths';
import { useAfterIdle } from '../../lib/use-after-idle';
import { RealtimeNavHost } from '../notifications/realtime-hosts';
import { CloseIcon, MenuIcon } from '../../components/ui/icons';

// The owner status query (and TanStack Query with it) loads once the page is idle; until it answers
// the link is the one an unknown status gives, as it was while the query was pending.
const OwnerLinkStatus = lazy(() => import('./owner-link-status'));
const unknownOwner = ownerLink({ isAdmin: false, isSetup: false });

function OwnerLink({ render }: { render: (link: typeof unknownOwner) => ReactNode }) {
  const fallback = render(unknownOwner);
  return useAfterIdle() ? (
    <Suspense fallback={fallback}>
      <OwnerLinkStatus render={render} />
    </Suspense>
  ) : (
    fallback
  );
}

interface NavItem {
  to: string;
  label: string;
  /** Extra path prefixes on which the item also shows as current. */
  alsoActiveOn?: readonly string[];
  end?: boolean;
}

const items: readonly NavItem[] = [
  { to: paths.home, label: 'Home', end: true },
  { to: paths.services, label: 'Services' },
  { to: paths.book(), label: 'Book' },
  { to: paths.track(), label: 'Track' },
  { to: paths.applyWorker, label: 'Apply as Worker' },
  { to: paths.applyCompany, label: 'Apply as Company' },
  { to: paths.workerLogin, label: 'Worker Login', alsoActiveOn: [patterns.workerDashboard, patterns.workerDashboardAlias] },
];

function isUnder(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

const linkClasses = (active: boolean) =>
  cn(
    'block rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300',
    active ? 'bg-white/15 text-amber-300' : 'text-slate-100 hover:bg-white/10 hover:text-white',
  );

export function NavBar() {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const menuId = useId();

  // A chosen link closes the small-screen menu.
  useEffect(() => setOpen(false), [pathname]);

  const link = (item: NavItem) => {
    const extra = item.alsoActiveOn?.some((prefix) => isUnder(pathname, prefix)) ?? false;
    return extra ? (
      <Link to={item.to} className={linkClasses(true)} aria-current="page">
        {item.label}
      </Link>
    ) : (
      <NavLink to={item.to} end={item.end} className={({ isActive }) => linkClasses(isActive)}>
        {item.label}
      </NavLink>
    );
  };
  const links = [
    ...items.map((item) => <li key={item.label}>{link(item)}</li>),
    <li key="owner">
      <OwnerLink render={(owner) => link({ to: owner.to, label: owner.label, end: owner.to === paths.admin })} />
    </li>,
  ];

  return (
    <header className="sticky top-0 z-40 border-b border-white/10 bg-slate-950/85 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-2 px-4 py-3">
        <Link
          to={paths.home}
          className="rounded-md text-xl font-extrabold tracking-tight text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300"
        >
          Fix<span className="text-amber-300">ly</span>
        </Link>
        {/* Beside the menu button on small screens, after the links on large ones: always in view. */}
        <div className="flex items-center gap-1 lg:order-last">
          <RealtimeNavHost />
          <button
            type="button"
            className="inline-flex items-center rounded-md p-2 text-slate-100 hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300 lg:hidden"
            aria-expanded={open}
            aria-controls={menuId}
            aria-label={open ? 'Close menu' : 'Open menu'}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? <CloseIcon className="size-6" /> : <MenuIcon className="size-6" />}
          </button>
        </div>
        <ul
          id={menuId}
          className={cn(
            'w-full flex-col gap-1 pb-2 lg:flex lg:w-auto lg:flex-row lg:items-center lg:pb-0',
            open ? 'flex' : 'hidden',
          )}
        >
          {links}
        </ul>
      </nav>
    </header>
  );
}
