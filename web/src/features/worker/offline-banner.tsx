import { WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { oldestSavedAt } from '../../lib/offline-jobs';
import { offlineBannerText, useOnline } from '../../lib/offline-status';

/**
 * The worker dashboard's offline banner: shown while the browser has no network, saying the jobs
 * on screen are the last loaded ones and what waits for a connection. Announced when it appears.
 */
export function OfflineBanner({ workerId }: { workerId: string }) {
  const online = useOnline();
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  useEffect(() => {
    // Read when the network goes: the lists saved their last answer just before.
    if (!online) setSavedAt(oldestSavedAt(workerId));
  }, [online, workerId]);
  const text = offlineBannerText(savedAt, new Date());
  return (
    <div role="status" aria-live="polite">
      {online ? null : (
        <div className="mb-6 flex items-start gap-3 rounded-xl border border-amber-300/60 bg-amber-950/90 p-4 text-amber-50" data-testid="offline-banner">
          <WifiOff aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-amber-300" />
          <div>
            <p className="font-semibold">{text.title}</p>
            <p className="mt-1 text-sm">{text.detail}</p>
          </div>
        </div>
      )}
    </div>
  );
}
