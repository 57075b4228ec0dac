import { LocateFixed, MapPin, Radio, Square } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Field } from '../../components/ui/field';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ADDRESS_NOT_FOUND_TEXT, accuracyText, coordinatesText, locationErrorMessages, type Fix } from './location';
import type { LocationPanelModel } from './use-location-panel';
import { formatDateTime } from '../../lib/date-time';

/**
 * The GPS location panel, for customers and workers: find the position, start or stop
 * sharing it with a request or job, the last fix with its address, a typed address instead, and
 * every location error said plainly. Behaviour lives in useLocationPanel.
 */
export function GpsLocationPanel({
  idPrefix,
  title,
  intro,
  panel,
  noTargetHint,
  manualHint,
}: {
  /** Makes the ids unique on the page. */
  idPrefix: string;
  title: string;
  intro: ReactNode;
  panel: LocationPanelModel;
  /** Why sharing cannot start yet when there is no request or job (shown under the toggle). */
  noTargetHint: string;
  /** What a typed address is used for on this screen. */
  manualHint: string;
}) {
  const { state } = panel;
  const headingId = `${idPrefix}-heading`;
  const shareHintId = `${idPrefix}-share-hint`;
  const [manualOpen, setManualOpen] = useState(false);
  // A refused permission (and any other failure) offers the typed address at once, so the person is never stuck.
  const showManual = !state.sharing && (manualOpen || state.error !== null);
  const shareHint = state.sharing
    ? null
    : !panel.targetId
      ? noTargetHint
      : !state.fix
        ? 'Find your location first, then start sharing it.'
        : null;

  return (
    <Card
      role="region"
      aria-labelledby={headingId}
      // Empty live regions stay in the page (so later text is announced) without adding a gap.
      className="flex flex-col gap-4 [&>[role=alert]:empty]:-mt-4 [&>[role=status]:empty]:-mt-4"
      data-testid={`${idPrefix}-panel`}>
      <div>
        <h2 id={headingId} className="flex items-center gap-2 text-xl font-semibold text-white">
          <MapPin aria-hidden="true" className="size-5 text-amber-300" /> {title}
        </h2>
        <div className="mt-1 text-sm text-slate-300">{intro}</div>
      </div>

      <div className="flex flex-wrap items-start gap-3">
        <Button variant="secondary" onClick={panel.locate} disabled={state.locating || state.sharing} aria-busy={state.locating}>
          <LocateFixed aria-hidden="true" className="size-4" /> Find my location
        </Button>
        {state.sharing ? (
          <Button variant="outline" onClick={panel.stop}>
            <Square aria-hidden="true" className="size-4" /> Stop sharing location
          </Button>
        ) : (
          <Button onClick={panel.start} disabled={!panel.canStart} aria-describedby={shareHint ? shareHintId : undefined}>
            <Radio aria-hidden="true" className="size-4" /> Start sharing location
          </Button>
        )}
      </div>
      {shareHint ? (
        <p id={shareHintId} className="-mt-2 text-sm text-slate-300">
          {shareHint}
        </p>
      ) : null}

      {/* One live region for what is happening now, read out as it changes. */}
      <div role="status" className="text-sm text-slate-100">
        {state.locating ? <p>Finding your location...</p> : null}
        {state.sharing ? (
          <p className="flex items-center gap-2 font-medium text-green-200">
            <span aria-hidden="true" className="size-2.5 animate-pulse rounded-full bg-green-400" />
            {panel.connected ? 'Sharing your location live.' : 'Sharing paused while offline: your location is sent again once the connection is back.'}
          </p>
        ) : null}
      </div>

      {state.fix ? <FixDetails idPrefix={idPrefix} fix={state.fix} address={panel.address} pending={panel.addressPending} /> : null}
      {/* Its own live region, so the failed lookup is read out when it happens. */}
      <p role="status" className="text-sm text-amber-100">
        {panel.addressMissing ? ADDRESS_NOT_FOUND_TEXT : ''}
      </p>
      {!state.fix && state.manualAddress ? (
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]" data-testid={`${idPrefix}-fix`}>
          <dt className="font-semibold text-slate-300">Address</dt>
          <dd className="text-white">{state.manualAddress}</dd>
          <dt className="font-semibold text-slate-300">Position</dt>
          <dd className="text-slate-200">Typed address, no GPS position</dd>
        </dl>
      ) : null}

      <div role="alert">
        {state.error ? (
          <div className="rounded-lg bg-red-950/70 p-3 text-sm text-red-100">
            <p className="font-semibold">{locationErrorMessages[state.error].title}</p>
            <p className="mt-1">{locationErrorMessages[state.error].description}</p>
          </div>
        ) : null}
      </div>

      {!state.sharing && state.error === null ? (
        <Button
          variant="ghost"
          size="sm"
          className="self-start"
          aria-expanded={manualOpen}
          aria-controls={`${idPrefix}-manual`}
          onClick={() => setManualOpen((open) => !open)}
        >
          Enter address manually
        </Button>
      ) : null}
      <div id={`${idPrefix}-manual`} hidden={!showManual}>
        {showManual ? <ManualAddress idPrefix={idPrefix} current={state.manualAddress ?? ''} hint={manualHint} onSave={panel.saveManual} /> : null}
      </div>
    </Card>
  );
}

function FixDetails({ idPrefix, fix, address, pending }: { idPrefix: string; fix: Fix; address: string | null; pending: boolean }) {
  const time = new Date(fix.timestamp);
  const valid = !Number.isNaN(time.getTime());
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]" data-testid={`${idPrefix}-fix`}>
      <dt className="font-semibold text-slate-300">Position</dt>
      <dd className="font-mono text-white">{coordinatesText(fix.latitude, fix.longitude)}</dd>
      <dt className="font-semibold text-slate-300">Accuracy</dt>
      <dd className="text-white">{accuracyText(fix.accuracy)}</dd>
      <dt className="font-semibold text-slate-300">Updated</dt>
      <dd className="text-white">
        {valid ? <time dateTime={time.toISOString()}>{formatDateTime(time, 'time-seconds')}</time> : 'Unknown'}
      </dd>
      <dt className="font-semibold text-slate-300">Address</dt>
      <dd className="text-white">{pending ? 'Looking up the address...' : (address ?? 'Not found')}</dd>
    </dl>
  );
}

function ManualAddress({ idPrefix, current, hint, onSave }: { idPrefix: string; current: string; hint: string; onSave: (value: string) => string | null }) {
  const [value, setValue] = useState(current);
  const [error, setError] = useState<string | undefined>();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = onSave(value);
    setError(problem ?? undefined);
    if (!problem) setValue(value.trim());
  };
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start">
      <Field id={`${idPrefix}-manual-address`} label="Your address" hint={hint} error={error}>
        <input type="text" autoComplete="street-address" value={value} onChange={(event) => setValue(event.target.value)} />
      </Field>
      <Button type="submit" variant="outline" className="sm:mt-7">
        Use this address
      </Button>
    </form>
  );
}
