import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import type { RequestService } from '../../../../shared/domain/requests';
import type { StartingLocation } from '../../domain/request-form/request-form-panel';
import { RequestSuccessBanner, useRequestSuccess } from '../../domain/request-form/request-success';
import { QueryScope } from '../../lib/query-client';
import { queryKeys } from '../../lib/query-keys';
import { HomeGuide } from './home-guide';
import { RequestList } from './request-list';
import { ServiceLocationBox } from './service-location-box';
import { readServiceLocation, saveServiceLocation } from './service-location';
import { ServicePicker } from './service-picker';

// The form (its validation, the request schema) is fetched when the visitor starts choosing, not
// with the page: most visits never open it, and a first screen has no use for it.
const loadForm = () => import('../../domain/request-form/request-form-panel');
const RequestFormPanel = lazy(() => loadForm().then((m) => ({ default: m.RequestFormPanel })));
const formLoading = (
  <p role="status" className="py-10 text-center text-slate-200">
    Loading the request form...
  </p>
);

/**
 * The home page's request flow: the worker-type picker beside the
 * service-location box, the request form, the customer's requests, then the featured services and
 * How It Works. Loaded as its own chunk so '/' keeps its first-paint budget.
 */
export default function RequestSection() {
  // The home page is outside the screens' query layout: this lazily loaded part brings the client.
  return (
    <QueryScope>
      <RequestFlow />
    </QueryScope>
  );
}

function RequestFlow() {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<RequestService | null>(null);
  // Where focus goes back to in the picker after Back; unset on first paint so the page does not jump.
  const [returnTo, setReturnTo] = useState<RequestService | undefined>(undefined);
  const [serviceLocation, setServiceLocation] = useState<StartingLocation | null>(readServiceLocation);
  const success = useRequestSuccess();

  const onSubmitted = () => {
    success.announce();
    void queryClient.invalidateQueries({ queryKey: queryKeys.customerRequests });
  };

  return (
    <div className="grid gap-10 pb-16">
      <div className={chosen ? 'grid gap-6' : 'grid items-start gap-6 lg:grid-cols-[2fr_1fr]'}>
        <section
          aria-labelledby="request-flow-title"
          onPointerOver={() => void loadForm()}
          onFocus={() => void loadForm()}
          className="rounded-2xl bg-slate-900/85 p-6 text-slate-100 ring-1 ring-white/10 sm:p-8">
          <RequestSuccessBanner visible={success.visible}>
            Request submitted! We are sending it to the nearest available professionals. Follow it under Your Requests.
          </RequestSuccessBanner>
          {chosen ? (
            <Suspense fallback={formLoading}>
              <RequestFormPanel
                key={chosen}
                service={chosen}
                startingLocation={serviceLocation}
                onBack={() => {
                  setReturnTo(chosen);
                  setChosen(null);
                }}
                onSubmitted={onSubmitted}
              />
            </Suspense>
          ) : (
            <ServicePicker onChoose={setChosen} focusService={returnTo} />
          )}
        </section>
        {/* Hidden while the form is open: the form has its own location box, filled from this one. */}
        {chosen ? null : (
          <ServiceLocationBox
            location={serviceLocation}
            onChange={(next) => {
              setServiceLocation(next);
              saveServiceLocation(next);
            }}
          />
        )}
      </div>
      <RequestList />
      <HomeGuide />
    </div>
  );
}
