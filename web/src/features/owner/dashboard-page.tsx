import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileText, KeyRound, LogOut } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { PageLoading } from '../../components/layout/page-loading';
import { Button, buttonClasses } from '../../components/ui/button';
import { toast } from '../../components/ui/toast-store';
import type { AdminStatus } from '../../lib/admin-status';
import { isUnder, queryKeys } from '../../lib/query-keys';
import { ApiError } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { ApplicationsTab } from './applications-tab';
import { Tabs, type TabDef } from './tabs';
import { useOwnerLiveRefresh } from './use-owner-live';
import { FormAlert } from '../../components/ui/form-alert';
import { Loading } from '../../components/ui/load-state';

// /admin opens on Applications; every other tab (analytics with its charts, the jobs console, the
// strike record, the document review) loads when it is first opened, so the first screen stays small.
const WorkersTab = lazy(() => import('./workers-tab').then((m) => ({ default: m.WorkersTab })));
const JobsTab = lazy(() => import('./jobs-tab').then((m) => ({ default: m.JobsTab })));
const AnalyticsTab = lazy(() => import('./analytics-tab').then((m) => ({ default: m.AnalyticsTab })));
const DocumentsTab = lazy(() => import('./documents-tab').then((m) => ({ default: m.DocumentsTab })));

type TabKey = 'applications' | 'workers' | 'jobs' | 'analytics' | 'documents';

const tabs: readonly TabDef<TabKey>[] = [
  { key: 'applications', label: 'Applications' },
  { key: 'workers', label: 'Workers' },
  { key: 'jobs', label: 'Jobs' },
  { key: 'analytics', label: 'Analytics' },
  { key: 'documents', label: 'Documents' },
];

const isTab = (value: string | null): value is TabKey => tabs.some((tab) => tab.key === value);

export default function DashboardPage() {
  useDocumentTitle('Owner Dashboard');
  const queryClient = useQueryClient();
  // Asked afresh on every visit: a cached "admin" from before a logout elsewhere must not open it.
  const status = useQuery<AdminStatus>({ queryKey: queryKeys.adminStatus, refetchOnMount: 'always' });

  // A session that ends while the dashboard is open (expired, password changed elsewhere): any
  // owner call answering 401 re-asks the status, which then leads to the login.
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        const error = event.query.state.error;
        if (event.type === 'updated' && isUnder(event.query.queryKey, queryKeys.admin) && error instanceof ApiError && error.status === 401) {
          void queryClient.invalidateQueries({ queryKey: queryKeys.adminStatus });
        }
      }),
    [queryClient],
  );

  if (status.isError || (status.isFetchedAfterMount && !status.isFetching && status.data?.isAdmin !== true)) {
    return <Navigate to={paths.adminLogin} replace />;
  }
  if (!status.isFetchedAfterMount || status.data?.isAdmin !== true) return <PageLoading />;
  return <Dashboard />;
}

function Dashboard() {
  const navigate = useNavigate();
  const auth = useAuth();
  useOwnerLiveRefresh();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const active: TabKey = isTab(requested) ? requested : 'applications';
  const [logoutFailed, setLogoutFailed] = useState(false);

  const logout = useMutation({
    mutationFn: () => auth.logout(),
    onMutate: () => setLogoutFailed(false),
    onSuccess: (ok) => {
      if (!ok) return setLogoutFailed(true);
      toast({ title: 'Logged Out', description: 'You have been signed out of the owner dashboard.' });
      void navigate(paths.adminLogin, { replace: true });
    },
  });

  const selectTab = (key: TabKey) =>
    setSearchParams(key === 'applications' ? {} : { tab: key }, { replace: true, preventScrollReset: true });

  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <header className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Owner Dashboard</h1>
          <p className="mt-2 text-slate-200">
            {auth.user ? (
              <>
                Signed in as <span className="font-semibold text-amber-300">{auth.user.username}</span>.{' '}
              </>
            ) : null}
            Review applications, manage workers and follow every job.
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Link to={paths.invoices} className={buttonClasses('outline', 'md')}>
            <FileText aria-hidden="true" className="size-4" />
            All Invoices
          </Link>
          <Link to={paths.changePassword} className={buttonClasses('outline', 'md')}>
            <KeyRound aria-hidden="true" className="size-4" />
            Change Password
          </Link>
          <Button variant="secondary" onClick={() => logout.mutate()} disabled={logout.isPending}>
            <LogOut aria-hidden="true" className="size-4" />
            {logout.isPending ? 'Logging out…' : 'Logout'}
          </Button>
        </div>
        {logoutFailed ? <FormAlert message="Logout failed" className="w-full" /> : null}
      </header>

      <Tabs label="Owner dashboard sections" tabs={tabs} active={active} onChange={selectTab}>
        {active === 'applications' ? <ApplicationsTab /> : null}
        <Suspense fallback={<Loading label={`Loading ${tabs.find((tab) => tab.key === active)?.label.toLowerCase()}…`} />}>
          {active === 'workers' ? <WorkersTab /> : null}
          {active === 'jobs' ? <JobsTab /> : null}
          {active === 'analytics' ? <AnalyticsTab /> : null}
          {active === 'documents' ? <DocumentsTab /> : null}
        </Suspense>
      </Tabs>
    </div>
  );
}
