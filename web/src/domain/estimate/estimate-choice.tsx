import { useEffect, useState } from 'react';
import { jobSizeLabels, jobSizes, type JobSize } from '../../../../shared/job-sizes';
import { MAX_WORKER_COUNT } from '../../../../shared/schemas/estimate';
import type { EstimateResult } from '../../../../shared/schemas/estimate';
import { Field } from '../../components/ui/field';
import { api, errorMessage } from '../../lib/api';
import { estimateLines, prosPhrase, requestedInstant, whenLimits, type WhenChoice } from './estimate';

/** How long the inputs must rest before the estimate is asked for again. */
const DEBOUNCE_MS = 400;

export interface EstimateInputs {
  category: string | null;
  location?: { lat: number; lng: number } | null;
  workerId?: string;
}

/** The counts "How many pros?" offers: 1 to the most a request may ask for. */
export const workerCountChoices = Array.from({ length: MAX_WORKER_COUNT }, (_, i) => i + 1);

/**
 * The "When" and job-size choices and the estimate they price (POST /api/estimates), shown before
 * Send. The time is stored on the job and shown as "Requested for …"; dispatch still starts at once.
 * A form that may ask for several pros (the request form; not a booking or a hire, which are one
 * pro) passes `workers`, which adds "How many pros?" and prices that many.
 */
export function EstimateChoice({
  idPrefix,
  inputs,
  when,
  size,
  onWhen,
  onSize,
  workers,
}: {
  idPrefix: string;
  inputs: EstimateInputs;
  when: WhenChoice;
  size: JobSize;
  onWhen: (when: WhenChoice) => void;
  onSize: (size: JobSize) => void;
  workers?: { count: number; onCount: (count: number) => void };
}) {
  const [result, setResult] = useState<EstimateResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const requestedTime = requestedInstant(when);
  const { category, workerId } = inputs;
  const lat = inputs.location?.lat;
  const lng = inputs.location?.lng;
  const workerCount = workers?.count;

  useEffect(() => {
    if (!category || requestedTime === undefined) {
      setResult(null);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      const location = lat !== undefined && lng !== undefined ? { lat, lng } : undefined;
      api('POST /api/estimates', {
        body: { category, size, requestedTime, ...(workerId ? { workerId } : { location }), ...(workerCount ? { workerCount } : {}) },
      })
        .then((answer) => {
          if (!current) return;
          setResult(answer);
          setProblem(null);
        })
        .catch((error: unknown) => {
          if (!current) return;
          setResult(null);
          setProblem(errorMessage(error) ?? 'We could not price this job just now.');
        });
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [category, size, requestedTime, workerId, lat, lng, workerCount]);

  const limits = whenLimits(Date.now());
  return (
    <div className="grid gap-4 sm:col-span-2 sm:grid-cols-2">
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">When</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name={`${idPrefix}-when`} checked={when.asap} onChange={() => onWhen({ asap: true })} />
          As soon as possible
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name={`${idPrefix}-when`} checked={!when.asap} onChange={() => onWhen({ asap: false, local: when.asap ? '' : when.local })} />
          Choose a date and time
        </label>
        {when.asap ? null : (
          <Field id={`${idPrefix}-when-at`} label="Date and time" hint="In your time zone, within the next 14 days.">
            <input type="datetime-local" min={limits.min} max={limits.max} value={when.local} onChange={(e) => onWhen({ asap: false, local: e.target.value })} />
          </Field>
        )}
      </fieldset>
      <Field id={`${idPrefix}-size`} label="Job size">
        <select value={size} onChange={(e) => onSize(e.target.value as JobSize)}>
          {jobSizes.map((s) => (
            <option key={s} value={s}>
              {jobSizeLabels[s]}
            </option>
          ))}
        </select>
      </Field>
      {workers ? (
        <Field id={`${idPrefix}-workers`} label="How many pros?" hint="Each pro works the hours shown; the estimate is for all of them.">
          <select value={workers.count} onChange={(e) => workers.onCount(Number(e.target.value))}>
            {workerCountChoices.map((n) => (
              <option key={n} value={n}>
                {prosPhrase(n)}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      <div className="sm:col-span-2" aria-live="polite" data-testid={`${idPrefix}-estimate`}>
        {result?.estimate ? (
          <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-md border border-slate-600 p-3 text-sm">
            {estimateLines(result.estimate, result.feePercent).map((line) => (
              <div key={line.label} className="contents">
                <dt>{line.label}</dt>
                <dd className="text-right">{line.amount}</dd>
              </div>
            ))}
          </dl>
        ) : (result?.unavailable ?? problem) ? (
          <p className="text-sm text-amber-300">{result?.unavailable ?? problem}</p>
        ) : null}
        <p className="mt-1 text-xs text-slate-300">An estimate: the invoice bills the hours the pro actually works.</p>
      </div>
    </div>
  );
}
