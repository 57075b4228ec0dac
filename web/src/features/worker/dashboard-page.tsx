import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  AlertTriangle,
  Briefcase,
  Camera,
  Clock,
  FileText,
  LayoutDashboard,
  LogIn,
  LogOut,
  Shuffle,
  UserCog,
  XCircle,
} from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { categories } from '../../../../shared/categories';
import { documentCategories } from '../../../../shared/document-categories';
import type { WorkerSelf } from '../../../../shared/schemas/worker';
import { PageHeader } from '../../components/layout/page-header';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/toast-store';
import { ApiError, errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { useOnline } from '../../lib/offline-status';
import { useAfterIdle } from '../../lib/use-after-idle';
import { useDocumentTitle } from '../../lib/use-document-title';
import { OfflineBanner } from './offline-banner';
import { JobsPanel } from './jobs-tab';
import { LocationNote, type LocationSharing } from './location-note';
import { useWorkerSession } from './session';
import { useLocationSharing } from './use-location-sharing';
import { isUnauthorized, rememberWorker, useWorkerLogout, useWorkerMe, workerCall } from './worker-api';
import { formatDateTime } from '../../lib/date-time';
import { formatMoney } from '../../lib/money';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadError, Loading } from '../../components/ui/load-state';
import { PageLoading } from '../../components/layout/page-loading';

// The Documents tab (uploads, filters, the document dialogs) is its own chunk, fetched once the
// dashboard is idle so the tab opens at once: the first screen is the Overview.
const loadDocumentsTab = () => import('./documents-tab');
const DocumentsPanel = lazy(() => loadDocumentsTab().then((m) => ({ default: m.DocumentsPanel })));

// An active pro's dashboard never needs the applicant's, the suspended or the terminated screen, and
// opens on the Overview, not on Strikes: each loads when it is shown.
const loadStrikes = () => import('./strikes-panel');
const StrikesPanel = lazy(() => loadStrikes().then((m) => ({ default: m.StrikesPanel })));
const SuspendedScreen = lazy(() => loadStrikes().then((m) => ({ default: m.SuspendedScreen })));
const StatusReason = lazy(() => loadStrikes().then((m) => ({ default: m.StatusReason })));
const ApplicationReview = lazy(() => import('./application-review').then((m) => ({ default: m.ApplicationReview })));

function DocumentsTab({ trades }: { trades: readonly string[] }) {
  return (
    <Suspense fallback={<Skeleton className="h-64 w-full" />}>
      <DocumentsPanel trades={trades} />
    </Suspense>
  );
}

export default function WorkerDashboardPage() {
  useDocumentTitle('Worker Dashboard');
  const session = useWorkerSession();
  const me = useWorkerMe();
  const logout = useWorkerLogout();
  const location = useLocationSharing();
  const online = useOnline();
  const current = me.data ?? session.worker;

  // Dispatch measures distance from the last shared position: send it when a shift is already running.
  const shareOnOpen = Boolean(session.token && current && isActiveStatus(current.status) && current.isClockedIn);
  const sharedOnOpen = useRef(false);
  const { share } = location;
  useEffect(() => {
    if (!shareOnOpen || sharedOnOpen.current) return;
    sharedOnOpen.current = true;
    share();
  }, [shareOnOpen, share]);

  const idle = useAfterIdle();
  useEffect(() => {
    // Offline it is simply not fetched now; opening the tab tries again.
    if (idle) loadDocumentsTab().catch(() => undefined);
  }, [idle]);

  if (!session.token || !session.worker) return <Navigate to={paths.workerLogin} replace />;
  const worker = me.data ?? session.worker;

  // An applicant's account: their application's status until the owner decides (live), or the "no".
  if (worker.status === 'pending_review' || worker.status === 'rejected') {
    return (
      <Suspense fallback={<PageLoading />}>
        <ApplicationReview worker={worker} onLogout={logout} />
      </Suspense>
    );
  }
  if (worker.status === 'terminated') {
    return (
      <StatusScreen icon={<XCircle aria-hidden="true" className="size-14 text-red-400" />} title="Account Terminated" onLogout={logout}>
        <p>
          This account has been terminated and can no longer take jobs. Strikes on record:{' '}
          <strong className="text-white" data-testid="worker-strikes">
            {worker.strikes}
          </strong>
          .
        </p>
        <Suspense fallback={null}>
          <StatusReason />
        </Suspense>
        <p className="mt-2">If you think this is a mistake, please contact support.</p>
      </StatusScreen>
    );
  }
  if (worker.status === 'suspended') {
    return (
      <Suspense fallback={<PageLoading />}>
        <SuspendedScreen worker={worker} onLogout={logout} />
      </Suspense>
    );
  }

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <header className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-white">Worker Dashboard</h1>
          <p className="mt-1 text-lg text-slate-200">Welcome, {worker.fullName}</p>
          {worker.strikes > 0 ? (
            <p className="mt-2 flex items-center gap-2 text-sm text-orange-200">
              <AlertTriangle aria-hidden="true" className="size-4" />
              <Badge tone="orange" data-testid="worker-strikes">
                {worker.strikes} {worker.strikes === 1 ? 'strike' : 'strikes'}
              </Badge>
              <span>Two strikes suspend the account until the owner reviews it. Arrive within the grace time of every job you accept; the Strikes tab shows each one and lets you appeal it.</span>
            </p>
          ) : null}
        </div>
        <AvailabilitySwitch worker={worker} />
      </header>

      <OfflineBanner workerId={worker.id} />

      {/* Offline the banner says why nothing is fresh. */}
      {me.isError && !isUnauthorized(me.error) && online ? (
        <LoadError
          className="mb-6"
          message="Failed to fetch worker profile. Showing the details saved when you signed in."
          onRetry={() => void me.refetch()}
          retrying={me.isFetching}
        />
      ) : null}

      <DashboardTabs
        tabs={[
          {
            id: 'overview',
            label: 'Overview',
            icon: LayoutDashboard,
            // Asked of the server, not the copy saved at sign-in: that one predates a photo added since.
            panel: <OverviewPanel worker={worker} location={location} photoMissing={me.data?.profilePhotoUrl === null} />,
          },
          {
            id: 'jobs',
            label: 'Jobs',
            icon: Briefcase,
            panel: <JobsPanel workerId={worker.id} onLogout={logout} note={worker.isClockedIn ? <LocationNote location={location} /> : null} />,
          },
          { id: 'documents', label: 'Documents', icon: FileText, panel: <DocumentsTab trades={worker.categories} /> },
          { id: 'strikes', label: 'Strikes', icon: AlertTriangle, panel: (
              <Suspense fallback={<Loading label="Loading strikes…" />}>
                <StrikesPanel />
              </Suspense>
            ),
          },
        ]}
      />
    </div>
  );
}

/** Any status other than an applicant's (pending_review, rejected), suspended or terminated counts as active. */
function isActiveStatus(status: WorkerSelf['status']): boolean {
  return status !== 'pending_review' && status !== 'rejected' && status !== 'suspended' && status !== 'terminated';
}

function StatusScreen({ icon, title, children, onLogout }: { icon: ReactNode; title: string; children: ReactNode; onLogout: () => void }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <Card className="text-center">
        <PageHeader icon={icon} title={title} />
        <div className="text-slate-200">{children}</div>
        <Button variant="outline" className="mt-6" onClick={onLogout}>
          <LogOut aria-hidden="true" className="size-4" /> Logout
        </Button>
      </Card>
    </div>
  );
}

function AvailabilitySwitch({ worker }: { worker: WorkerSelf }) {
  const queryClient = useQueryClient();
  const labelId = useId();
  const online = useOnline();
  const update = useMutation({
    mutationFn: (isAvailable: boolean) => workerCall('POST /api/workers/availability', { body: { isAvailable } }),
    onSuccess: ({ isAvailable }) => {
      rememberWorker(queryClient, { ...worker, isAvailable });
      toast(
        isAvailable
          ? { title: 'Now Available', description: 'You can receive job offers.' }
          : { title: 'Now Unavailable', description: 'You will not receive job offers.' },
      );
    },
    onError: (error) => {
      toast({ title: 'Failed to update availability', description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
    },
  });
  const on = update.isPending ? Boolean(update.variables) : worker.isAvailable;
  return (
    <div className="flex items-center gap-3 rounded-xl border border-white/10 bg-slate-900/90 px-4 py-3">
      <span id={labelId} className="text-sm font-semibold text-white">
        Available for jobs
      </span>
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-labelledby={labelId}
        disabled={update.isPending || !online}
        onClick={() => update.mutate(!worker.isAvailable)}
        className={cn(
          'relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300 focus-visible:ring-offset-2 focus-visible:ring-offset-slate-900 disabled:opacity-60',
          on ? 'bg-green-500' : 'bg-slate-600',
        )}
      >
        <span
          aria-hidden="true"
          className={cn('inline-block size-5 rounded-full bg-white shadow transition-transform', on ? 'translate-x-6' : 'translate-x-1')}
        />
      </button>
      <span className={cn('text-sm font-medium', on ? 'text-green-300' : 'text-slate-300')} aria-hidden="true">
        {on ? 'On' : 'Off'}
      </span>
    </div>
  );
}

interface TabDef {
  id: string;
  label: string;
  icon: typeof Clock;
  panel: ReactNode;
}

/** Tabs with the WAI-ARIA pattern: arrow keys, Home and End move between them. */
function DashboardTabs({ tabs }: { tabs: readonly TabDef[] }) {
  const [active, setActive] = useState(tabs[0]!.id);
  const base = useId();
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const select = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length]!;
    setActive(tab.id);
    refs.current[tab.id]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((t) => t.id === active);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(next);
  };
  return (
    <div>
      <div role="tablist" aria-label="Dashboard sections" className="mb-6 flex gap-2 overflow-x-auto rounded-xl bg-slate-900/90 p-1.5" onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const selected = tab.id === active;
          const Icon = tab.icon;
          return (
            <button
              key={tab.id}
              ref={(el) => {
                refs.current[tab.id] = el;
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${tab.id}`}
              aria-controls={`${base}-panel-${tab.id}`}
              aria-selected={selected}
              tabIndex={selected ? 0 : -1}
              onClick={() => setActive(tab.id)}
              className={cn(
                'flex flex-1 items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300',
                selected ? 'bg-amber-400 text-slate-950' : 'text-slate-100 hover:bg-white/10',
              )}
            >
              <Icon aria-hidden="true" className="size-4" /> {tab.label}
            </button>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${base}-panel-${tab.id}`}
          aria-labelledby={`${base}-tab-${tab.id}`}
          hidden={tab.id !== active}
          tabIndex={0}
          className="focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300 rounded-2xl"
        >
          {tab.id === active ? tab.panel : null}
        </div>
      ))}
    </div>
  );
}

function categoryName(slug: string): string {
  const name = categories.find((c) => c.slug === slug)?.name ?? slug;
  return slug === 'handyman' ? 'General Handyman' : name;
}

/** Why no offers come while a required document is expired, and what ends it. */
function OffersPausedNotice({ categoryIds }: { categoryIds: string[] }) {
  if (!categoryIds.length) return null;
  const names = categoryIds.map((id) => documentCategories.find((c) => c.id === id)?.name ?? id);
  return (
    <div role="status" className="mb-6 rounded-lg border border-amber-400/40 bg-amber-500/10 p-4 text-amber-100">
      <p className="font-semibold">Job offers are paused</p>
      <p className="mt-1 text-sm">
        Your {names.join(', ')} {names.length === 1 ? 'has' : 'have'} expired. Upload a valid one in the Documents tab; offers resume as
        soon as it is approved.
      </p>
    </div>
  );
}

/** A pro without a photo shows as initials on every card a customer compares. */
function PhotoPrompt() {
  return (
    <Card className="mb-6 flex flex-wrap items-center justify-between gap-3 border-amber-400/40 p-4" data-testid="photo-prompt">
      <p className="flex items-center gap-2 text-sm text-slate-100">
        <Camera aria-hidden="true" className="size-5 shrink-0 text-amber-300" />
        Add a profile photo — customers choose pros they can recognise.
      </p>
      <Link to={paths.workerProfile} className={buttonClasses('outline', 'sm')}>
        Add a photo
      </Link>
    </Card>
  );
}

function OverviewPanel({ worker, location, photoMissing }: { worker: WorkerSelf; location: LocationSharing; photoMissing: boolean }) {
  return (
    <div>
      {photoMissing ? <PhotoPrompt /> : null}
      <OffersPausedNotice categoryIds={worker.offersPausedFor ?? []} />
      {worker.isClockedIn ? <LocationNote location={location} /> : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <TimeClock worker={worker} onClockedIn={location.share} />
        <Card>
          <h2 className="text-xl font-semibold text-white">Your profile</h2>
          <dl className="mt-4 grid gap-3 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-slate-300">Hourly rate</dt>
              <dd className="font-semibold text-white">{formatMoney(worker.hourlyRate)}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-300">Experience</dt>
              <dd className="font-semibold text-white">
                {worker.yearsExp} {worker.yearsExp === 1 ? 'year' : 'years'}
              </dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-300">Services</dt>
              <dd className="text-right font-semibold text-white">
                {worker.categories.length ? worker.categories.map(categoryName).join(', ') : 'None yet'}
              </dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-300">Worker type</dt>
              <dd className="font-semibold text-white">
                {worker.workerType === 'contract' ? 'Contract Worker' : worker.workerType === 'independent' ? 'Independent Worker' : 'Not chosen yet'}
              </dd>
            </div>
          </dl>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link to={paths.workerProfile} className={buttonClasses('outline', 'sm')}>
              <UserCog aria-hidden="true" className="size-4" /> Edit Profile
            </Link>
            <Link to={paths.workerType} className={buttonClasses('ghost', 'sm')}>
              <Shuffle aria-hidden="true" className="size-4" /> {worker.workerType ? 'Change Worker Type' : 'Choose Worker Type'}
            </Link>
          </div>
        </Card>
      </div>
    </div>
  );
}

function TimeClock({ worker, onClockedIn }: { worker: WorkerSelf; onClockedIn: () => void }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const online = useOnline();
  const clock = useMutation({
    mutationFn: async (action: 'in' | 'out') =>
      (await (action === 'in' ? workerCall('POST /api/workers/clock-in') : workerCall('POST /api/workers/clock-out'))) as {
        isClockedIn: boolean;
        lastClockIn?: string | null;
      },
    onMutate: () => setProblem(null),
    onSuccess: (answer, action) => {
      rememberWorker(queryClient, {
        ...worker,
        isClockedIn: answer.isClockedIn,
        lastClockIn: answer.lastClockIn !== undefined ? answer.lastClockIn : worker.lastClockIn,
      });
      toast(
        action === 'in'
          ? { title: 'Clocked In', description: 'Your shift has started.' }
          : { title: 'Clocked Out', description: 'Your shift has ended.' },
      );
      if (action === 'in' && answer.isClockedIn) onClockedIn();
    },
    onError: (error, action) => {
      const fallback = action === 'in' ? 'Failed to clock in' : 'Failed to clock out';
      const message = errorMessage(error) ?? fallback;
      if (error instanceof ApiError && error.status === 409) setProblem(message);
      toast({ title: fallback, description: message, variant: 'destructive' });
    },
  });
  const last = formatDateTime(worker.lastClockIn);
  return (
    <Card>
      <h2 className="flex items-center gap-2 text-xl font-semibold text-white">
        <Clock aria-hidden="true" className="size-5 text-amber-300" /> Time Clock
      </h2>
      <p className="mt-4 flex items-center gap-2 text-sm text-slate-200">
        Status:{' '}
        <Badge tone={worker.isClockedIn ? 'green' : 'slate'} data-testid="clock-status">
          {worker.isClockedIn ? 'Clocked in' : 'Clocked out'}
        </Badge>
      </p>
      <p className="mt-2 text-sm text-slate-200">
        Last clock-in: <span className="font-semibold text-white">{last ?? 'No clock-in yet'}</span>
      </p>
      <FormAlert message={problem} className="mt-4" />
      <div className="mt-6 flex flex-wrap gap-3">
        <Button onClick={() => clock.mutate('in')} disabled={clock.isPending || worker.isClockedIn || !online}>
          <LogIn aria-hidden="true" className="size-4" /> Clock In
        </Button>
        <Button variant="outline" onClick={() => clock.mutate('out')} disabled={clock.isPending || !worker.isClockedIn || !online}>
          <LogOut aria-hidden="true" className="size-4" /> Clock Out
        </Button>
      </div>
      <p className="mt-4 text-sm text-slate-300">Clock in while you are ready to work: job offers go to available, clocked-in pros.</p>
    </Card>
  );
}
