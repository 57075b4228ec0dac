import { BellRing, DoorOpen } from 'lucide-react';
import { useCallback } from 'react';
import type { WorkerJobView } from '../../../../shared/schemas/job';
import type { Fix } from '../../domain/location/location';
import { GpsLocationPanel } from '../../domain/location/location-panel';
import { useLocationPanel } from '../../domain/location/use-location-panel';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { useJobRoom, useRealtimeSend, useRealtimeStatus } from '../../lib/realtime';
import { oneMinuteAwayToast, statusButtonsShown } from './job-live';

/**
 * The worker's live part of a held job: the GPS panel sharing their position with the job's room
 * (worker:loc, at most every 2 s) and the status buttons the customer hears as live toasts.
 */
export function JobLiveSection({
  job,
  onArrived,
  busy,
}: {
  job: Pick<WorkerJobView, 'id' | 'state' | 'nextStates'>;
  /**
   * Mark Arrived: the server records the arrival when a recent fix puts the pro at the address,
   * and otherwise asks the customer to confirm it; the customer hears it from the server either way.
   */
  onArrived: () => void;
  /** A state change is already on its way. */
  busy: boolean;
}) {
  useJobRoom(job.id, 'worker');
  const realtimeSend = useRealtimeSend();
  const status = useRealtimeStatus();
  const connected = status === 'connected';

  const sendFix = useCallback(
    (fix: Fix) => realtimeSend('worker:loc', { jobId: job.id, lat: fix.latitude, lng: fix.longitude, accuracy: fix.accuracy }),
    [realtimeSend, job.id],
  );
  const panel = useLocationPanel({ targetId: job.id, send: sendFix, connected });

  const sendOneMinuteAway = () => {
    const fix = panel.state.fix;
    const sent = realtimeSend('work_status', {
      requestId: job.id,
      status: 'one_minute_away',
      ...(fix ? { latitude: fix.latitude, longitude: fix.longitude } : {}),
    });
    toast(oneMinuteAwayToast(sent));
  };
  // Not said over the socket: "arrived" is the server's to tell, once a fix or the customer proves it.
  const arrive = () => {
    if (job.nextStates.includes('arrived')) onArrived();
  };

  const offlineHintId = `job-status-offline-${job.id}`;
  return (
    <div className="grid gap-6">
      <GpsLocationPanel
        idPrefix="worker-location"
        title="Share your location"
        intro="While you share, the customer follows you on a map with your distance and arrival time. It stops when you leave this page."
        panel={panel}
        noTargetHint="Sharing opens once you hold this job."
        manualHint="Kept on this page for your reference; the customer sees only a shared GPS position."
      />
      {statusButtonsShown(job.state) ? (
        <Card role="region" aria-labelledby="job-status-heading" className="grid gap-3">
          <h2 id="job-status-heading" className="text-xl font-semibold text-white">
            Tell the customer
          </h2>
          <div className="flex flex-wrap gap-3">
            <Button
              variant="secondary"
              onClick={sendOneMinuteAway}
              disabled={!connected}
              aria-describedby={connected ? undefined : offlineHintId}
            >
              <BellRing aria-hidden="true" className="size-4" /> 1 minute away
            </Button>
            <Button onClick={arrive} disabled={busy || !job.nextStates.includes('arrived')}>
              <DoorOpen aria-hidden="true" className="size-4" /> I just arrived
            </Button>
          </div>
          <p id={offlineHintId} role="status" className="text-sm text-slate-300">
            {connected ? '' : status === 'reconnecting' ? 'Reconnecting... "1 minute away" comes back once you are online.' : 'You are offline: "1 minute away" comes back once you are online.'}
          </p>
        </Card>
      ) : null}
    </div>
  );
}

