import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { workerTypes, type WorkerType } from '../../../../shared/domain/worker-types';
import type { WorkerSelf } from '../../../../shared/schemas/worker';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { saveWorkerType } from './session';
import { rememberWorker, workerCall } from './worker-api';

const typeText: Record<WorkerType, { name: string; rule: string }> = {
  contract: { name: 'Contract Worker', rule: 'Scheduled assignments and the dashboard time clock.' },
  independent: { name: 'Independent Worker', rule: 'Your own schedule; you stay on call while you hold a job you accepted.' },
};

/**
 * The worker type on the profile, where the worker-type page says it can be changed: saved on the
 * account (POST /api/workers/worker-type, active workers only) and on this device.
 */
export function WorkerTypeSetting({ worker }: { worker: WorkerSelf }) {
  const queryClient = useQueryClient();
  const legendId = useId();
  const onAccount = worker.status === 'active';
  const save = useMutation({
    mutationFn: (workerType: WorkerType) => workerCall('POST /api/workers/worker-type', { body: { workerType } }),
    onSuccess: ({ workerType }) => {
      if (workerType) saveWorkerType(workerType);
      rememberWorker(queryClient, { ...worker, workerType });
      toast({ title: 'Worker type saved', description: workerType ? `Your worker type is now ${typeText[workerType].name}.` : undefined });
    },
    onError: (error) => {
      toast({ title: 'Could not save your worker type', description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
    },
  });
  const current = save.isPending ? save.variables : worker.workerType;

  return (
    <Card className="mt-6">
      <fieldset aria-describedby={`${legendId}-note`} disabled={!onAccount || save.isPending}>
        <legend id={legendId} className="text-lg font-semibold text-white">
          Worker type
        </legend>
        <p id={`${legendId}-note`} className="mt-1 text-sm text-slate-300">
          {onAccount ? 'How you take work.' : 'You can choose once your account is active.'}{' '}
          <Link to={paths.workerType} className="font-semibold text-amber-300 underline-offset-4 hover:underline">
            Compare the worker types
          </Link>
        </p>
        <div className="mt-4 grid gap-3 sm:grid-cols-2">
          {workerTypes.map((type) => (
            <label
              key={type}
              className={cn(
                'flex cursor-pointer gap-3 rounded-xl border border-white/10 bg-slate-900/90 p-4 text-slate-200',
                current === type && 'ring-2 ring-amber-400',
              )}
            >
              <input
                type="radio"
                name={`${legendId}-type`}
                value={type}
                checked={current === type}
                onChange={() => save.mutate(type)}
                className="mt-1 accent-amber-400"
              />
              <span>
                <span className="block font-semibold text-white">{typeText[type].name}</span>
                <span className="block text-sm">{typeText[type].rule}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
    </Card>
  );
}
