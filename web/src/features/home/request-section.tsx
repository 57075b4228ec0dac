import { useQueryClient } from '@tanstack/react-query';
import { CircleCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { RequestService } from '../../../../shared/schemas/request';
import { SUCCESS_BANNER_MS } from './request-card';
import { RequestFormPanel } from './request-form-panel';
import { RequestList, requestsKey } from './request-list';
import { ServicePicker } from './service-picker';

/**
 * The home page's request flow (spec "Home page (request flow)"): the worker-type picker, the request
 * form, and the customer's requests. Loaded as its own chunk so '/' keeps its first-paint budget.
 */
export default function RequestSection() {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<RequestService | null>(null);
  // Where focus goes back to in the picker after Back; unset on first paint so the page does not jump.
  const [returnTo, setReturnTo] = useState<RequestService | undefined>(undefined);
  // Counts submissions, so a second success restarts the banner's 5 s.
  const [submitted, setSubmitted] = useState(0);
  const [bannerVisible, setBannerVisible] = useState(false);

  useEffect(() => {
    if (!submitted) return;
    setBannerVisible(true);
    const timer = setTimeout(() => setBannerVisible(false), SUCCESS_BANNER_MS);
    return () => clearTimeout(timer);
  }, [submitted]);

  const onSubmitted = () => {
    setSubmitted((n) => n + 1);
    void queryClient.invalidateQueries({ queryKey: requestsKey });
  };

  return (
    <div className="grid gap-10 pb-16">
      <section aria-labelledby="request-flow-title" className="rounded-2xl bg-slate-900/85 p-6 text-slate-100 ring-1 ring-white/10 sm:p-8">
        <div role="status">
          {bannerVisible ? (
            <p className="mb-6 flex items-start gap-3 rounded-lg border border-green-400/40 bg-green-950/70 p-4 font-medium text-green-100">
              <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-green-300" />
              <span>Request submitted! We are sending it to the nearest available professionals. Follow it under Your Requests.</span>
            </p>
          ) : null}
        </div>
        {chosen ? (
          <RequestFormPanel
            key={chosen}
            service={chosen}
            onBack={() => {
              setReturnTo(chosen);
              setChosen(null);
            }}
            onSubmitted={onSubmitted}
          />
        ) : (
          <ServicePicker onChoose={setChosen} focusService={returnTo} />
        )}
      </section>
      <RequestList />
    </div>
  );
}
