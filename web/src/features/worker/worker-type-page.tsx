import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Check, Compass } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { PublicConfig } from '../../../../shared/schemas/config';
import type { WorkerType } from '../../../../shared/schemas/worker';
import { PageHeader } from '../../components/layout/page-header';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/toast-store';
import { errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { saveWorkerType, useSavedWorkerType, useWorkerSession } from './session';
import { rememberWorker, workerCall } from './worker-api';
import { queryKeys } from '../../lib/query-keys';
import { LoadError } from '../../components/ui/load-state';
import { FormAlert } from '../../components/ui/form-alert';

/** After a choice the dashboard opens, 1.5 s later so the confirmation can be read. */
export const WORKER_TYPE_REDIRECT_MS = 1500;

/**
 * The choice is saved on this device and, for a signed-in active worker, on the account
 * (POST /api/workers/worker-type). Signed out, it waits on this device and is saved to the
 * account at the next login.
 */
export default function WorkerTypePage() {
  useDocumentTitle('Choose Your Worker Type');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { token, worker } = useWorkerSession();
  const saved = useSavedWorkerType();
  const current = worker?.workerType ?? saved;
  const config = useQuery<PublicConfig>({ queryKey: queryKeys.config });
  const [chosen, setChosen] = useState<WorkerType | null>(null);
  const onAccount = Boolean(token && worker?.status === 'active');

  const choose = useMutation({
    mutationFn: async (type: WorkerType) => {
      if (onAccount) await workerCall('POST /api/workers/worker-type', { body: { workerType: type } });
      return type;
    },
    onSuccess: (type) => {
      saveWorkerType(type);
      if (onAccount && worker) rememberWorker(queryClient, { ...worker, workerType: type });
      setChosen(type);
      const name = type === 'contract' ? 'Contract Worker' : 'Independent Worker';
      toast({
        title: 'Worker type saved',
        description: onAccount
          ? `Your worker type is now ${name}.`
          : `${name} is saved on this device and will be saved to your account the next time you log in.`,
      });
    },
    onError: (error) => {
      toast({ title: 'Could not save your choice', description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
    },
  });

  useEffect(() => {
    if (!chosen) return;
    const timer = setTimeout(() => void navigate(paths.workerDashboardAlias), WORKER_TYPE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [chosen, navigate]);

  const fee = config.isPending ? (
    <Skeleton className="inline-block h-4 w-10 align-middle" />
  ) : config.isError ? (
    'the platform fee'
  ) : (
    `a ${config.data.platformFeePercent}% platform fee (you keep ${config.data.workerSharePercent}%)`
  );

  return (
    <div className="mx-auto max-w-4xl px-4 py-12">
      <PageHeader title="Choose Your Worker Type" subtitle="Pick the way of working that suits you. You can change it later in your profile settings." />
      {config.isError ? (
        <LoadError className="mb-6" message="We couldn’t load the current platform fee." onRetry={() => void config.refetch()} retrying={config.isFetching} />
      ) : null}
      {chosen ? (
        <FormAlert tone="success" message="Saved. Opening your dashboard..." className="mb-6 text-center" />
      ) : null}
      <div className="grid gap-6 md:grid-cols-2">
        <TypeCard
          title="Contract Worker"
          icon={<CalendarClock aria-hidden="true" className="size-8 text-amber-300" />}
          selected={current === 'contract'}
          points={[
            'Scheduled assignments planned ahead of time',
            <>Earnings paid after {fee} per job</>,
            'Time tracking with the dashboard time clock',
          ]}
          disabled={choose.isPending || chosen !== null}
          onChoose={() => choose.mutate('contract')}
        />
        <TypeCard
          title="Independent Worker"
          icon={<Compass aria-hidden="true" className="size-8 text-amber-300" />}
          selected={current === 'independent'}
          points={[
            'Set your own schedule',
            'Go on call or off call at any time',
            'You may go off call only while you hold no newly accepted job or location',
          ]}
          disabled={choose.isPending || chosen !== null}
          onChoose={() => choose.mutate('independent')}
        />
      </div>
      <p className="mt-8 text-center text-sm text-slate-300">
        {onAccount ? (
          'Your choice is saved to your account and on this device.'
        ) : token ? (
          'Your choice is saved on this device; it is saved to your account once your account is active and you log in again.'
        ) : (
          <>
            You are not logged in: your choice is saved on this device and saved to your account the next time you{' '}
            <Link to={paths.workerLogin} className="font-semibold text-amber-300 underline-offset-4 hover:underline">
              log in
            </Link>
            .
          </>
        )}
      </p>
    </div>
  );
}

function TypeCard({
  title,
  icon,
  points,
  selected,
  disabled,
  onChoose,
}: {
  title: string;
  icon: ReactNode;
  points: ReactNode[];
  selected: boolean;
  disabled: boolean;
  onChoose: () => void;
}) {
  return (
    <Card className={cn('flex flex-col', selected && 'ring-2 ring-amber-400')}>
      <div className="flex items-center justify-between gap-3">
        {icon}
        {selected ? (
          <span className="rounded-full bg-amber-400 px-3 py-1 text-xs font-semibold text-slate-950">Current choice</span>
        ) : null}
      </div>
      <h2 className="mt-4 text-2xl font-bold text-white">{title}</h2>
      <ul className="mt-4 grid flex-1 gap-2 text-slate-200">
        {points.map((point, index) => (
          <li key={index} className="flex gap-2">
            <Check aria-hidden="true" className="mt-1 size-4 shrink-0 text-green-400" />
            <span>{point}</span>
          </li>
        ))}
      </ul>
      <Button className="mt-6" onClick={onChoose} disabled={disabled}>
        Choose {title}
      </Button>
    </Card>
  );
}
