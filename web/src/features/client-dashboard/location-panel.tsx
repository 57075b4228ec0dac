import { LocateFixed, MapPin } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Field } from '../../components/form/field';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { accuracyLabel, coordinatesLabel } from './format';
import { locationErrorMessages, validateManualAddress } from './location';
import type { LocationState } from './use-location';

export interface AddressLookup {
  pending: boolean;
  /** The looked-up address; null when the lookup failed or found nothing. */
  address: string | null;
}

/**
 * The spec's GPS location panel, as far as this screen needs it: one fix for distances and the
 * hire form, or a typed address when the browser cannot give one.
 */
export function LocationPanel({
  state,
  onLocate,
  lookup,
  manualAddress,
  onManualAddress,
}: {
  state: LocationState;
  onLocate: () => void;
  lookup: AddressLookup;
  manualAddress: string;
  onManualAddress: (address: string) => void;
}) {
  const locating = state.status === 'locating';
  return (
    <Card className="flex flex-col gap-4 [&>[role=status]:empty]:-mt-4" aria-labelledby="client-location-heading" role="region">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 id="client-location-heading" className="flex items-center gap-2 text-xl font-semibold text-white">
            <MapPin aria-hidden="true" className="size-5 text-amber-300" /> Your location
          </h2>
          <p className="mt-1 text-sm text-slate-300">
            With your position the list shows how far each professional is and when they could arrive, and your hire tells them
            where to come.
          </p>
        </div>
        <Button variant="secondary" onClick={onLocate} disabled={locating} aria-busy={locating}>
          <LocateFixed aria-hidden="true" className="size-4" /> Use my location
        </Button>
      </div>

      <div role="status" className="text-sm text-slate-200">
        {locating ? <p>Finding your location...</p> : null}
        {state.status === 'fixed' ? <FixDetails fix={state.fix} lookup={lookup} /> : null}
      </div>

      {state.status === 'error' ? (
        <div role="alert" className="rounded-lg bg-red-950/70 p-3 text-sm text-red-100">
          <p className="font-semibold">{locationErrorMessages[state.kind].title}</p>
          <p className="mt-1">{locationErrorMessages[state.kind].description}</p>
        </div>
      ) : null}
      {state.status === 'error' ? <ManualAddress current={manualAddress} onSave={onManualAddress} /> : null}

      <p className="text-xs text-slate-400">Live location sharing arrives with live tracking.</p>
    </Card>
  );
}

function FixDetails({ fix, lookup }: { fix: { latitude: number; longitude: number; accuracy: number; timestamp: number }; lookup: AddressLookup }) {
  const time = new Date(fix.timestamp).toLocaleTimeString(undefined, { timeStyle: 'short' });
  return (
    <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]" data-testid="client-location-fix">
      <dt className="font-semibold text-slate-300">Position</dt>
      <dd className="font-mono text-white">{coordinatesLabel(fix.latitude, fix.longitude)}</dd>
      <dt className="font-semibold text-slate-300">Accuracy</dt>
      <dd className="text-white">{accuracyLabel(fix.accuracy)}</dd>
      <dt className="font-semibold text-slate-300">Updated</dt>
      <dd className="text-white">
        <time dateTime={new Date(fix.timestamp).toISOString()}>{time}</time>
      </dd>
      <dt className="font-semibold text-slate-300">Address</dt>
      <dd className="text-white">
        {lookup.pending
          ? 'Looking up the address...'
          : (lookup.address ?? 'No address found for this position; your hire will give the coordinates instead.')}
      </dd>
    </dl>
  );
}

function ManualAddress({ current, onSave }: { current: string; onSave: (address: string) => void }) {
  const [value, setValue] = useState(current);
  const [error, setError] = useState<string | undefined>();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateManualAddress(value);
    if (!result.ok) return setError(result.message);
    setError(undefined);
    setValue(result.address);
    onSave(result.address);
  };
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start">
      <Field id="client-manual-address" label="Your address" hint="It fills the hire form. Distances stay unknown without your location." error={error}>
        <input type="text" autoComplete="street-address" value={value} onChange={(event) => setValue(event.target.value)} />
      </Field>
      <Button type="submit" variant="outline" className="sm:mt-7">
        Use this address
      </Button>
      <p role="status" className="text-sm text-slate-200 empty:hidden sm:col-span-2">
        {current ? (
          <>
            Using <span className="font-semibold text-white">{current}</span> for your hires.
          </>
        ) : null}
      </p>
    </form>
  );
}
