import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { SearchX, Users } from 'lucide-react';
import { useState } from 'react';
import { categories } from '../../../../shared/categories';
import type { WorkerListingView } from '../../../../shared/schemas/job';
import { Field } from '../../components/ui/field';
import { Card } from '../../components/ui/card';
import { errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { unitWord, useDisplaySettings, type DisplaySettings } from '../../lib/config';
import { ServiceAddressField, useSavedServiceAddress, type ServiceArea } from './service-address';
import { WorkerCard, WorkerCardSkeleton } from './worker-card';
import { effectiveSort, filterWorkers, maxKmOf, sortKeys, sortWorkers, withinChoices, workerListQuery, type SortKey } from './worker-filters';
import { LoadError } from '../../components/ui/load-state';
import { currencySign } from '../../lib/money';

const sortLabels: Record<SortKey, string> = { nearest: 'Nearest', rating: 'Rating', price: 'Price (lowest first)' };
const SKELETON_CARDS = 6;
/**
 * The listing's photo links are presigned for 10 minutes: the list is asked again well before they
 * lapse, so an open page keeps showing faces (and who is still on call).
 */
const LIST_REFRESH_MS = 5 * 60_000;

/**
 * Search, filters and the worker cards. The category and the distance limit go to the server; the
 * text, price ceiling and order are applied here to what it answered. Distances are bands the
 * server measures from the customer's saved service address, and from nothing else: no position
 * of the browser's goes with the list.
 */
export function WorkerList({
  searched,
  area,
  onAreaChange,
  onHire,
}: {
  searched: boolean;
  area: ServiceArea;
  onAreaChange: (next: ServiceArea) => void;
  onHire: (worker: WorkerListingView) => void;
}) {
  const settings = useDisplaySettings();
  const [category, setCategory] = useState('');
  const [search, setSearch] = useState('');
  const [maxRate, setMaxRate] = useState('');
  const [within, setWithin] = useState('');
  const [chosenSort, setChosenSort] = useState<SortKey | null>(null);
  const saved = useSavedServiceAddress();
  const savedAt = saved.data?.serviceAddress?.savedAt ?? null;
  const addressSaved = savedAt !== null;
  const sort = effectiveSort(chosenSort, addressSaved);
  const maxKm = maxKmOf(within, settings.distanceUnit, addressSaved);
  const withinText = maxKm !== null ? `within ${within} ${unitWord(Number(within), settings.distanceUnit)}` : null;

  const workers = useQuery<WorkerListingView[]>({
    // The saved address's time is in the key: a new address is a new list (new bands).
    queryKey: queryKeys.workerList(workerListQuery(category, maxKm), savedAt),
    enabled: searched,
    // A new category or a new place keeps the cards on screen until the answer replaces them.
    placeholderData: keepPreviousData,
    staleTime: LIST_REFRESH_MS,
    refetchInterval: LIST_REFRESH_MS,
  });

  const all = workers.data ?? [];
  const shown = sortWorkers(filterWorkers(all, { search, maxRate }), sort);
  const categoryName = categories.find((c) => c.slug === category)?.name;
  const withinHint = within && !addressSaved ? 'Save your service address first.' : undefined;

  return (
    <section aria-labelledby="client-workers-heading" className="grid gap-5">
      <h2 id="client-workers-heading" className="flex items-center gap-2 text-2xl font-bold text-white">
        <Users aria-hidden="true" className="size-6 text-amber-300" /> Available workers
      </h2>

      <Card className="p-5">
        <form role="search" aria-label="Filter workers" onSubmit={(event) => event.preventDefault()} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Field id="worker-search" label="Search" hint="Name or specialty">
            <input type="search" autoComplete="off" value={search} onChange={(event) => setSearch(event.target.value)} />
          </Field>
          <Field id="worker-category" label="Category">
            <select value={category} onChange={(event) => setCategory(event.target.value)}>
              <option value="">All categories</option>
              {categories.map((c) => (
                <option key={c.slug} value={c.slug}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
          <Field id="worker-max-rate" label={`Maximum hourly rate (${currencySign(settings)})`} hint="Leave blank for any rate">
            <input type="number" inputMode="decimal" min={0} step={1} value={maxRate} onChange={(event) => setMaxRate(event.target.value)} />
          </Field>
          <Field id="worker-sort" label="Sort by" hint={addressSaved ? undefined : 'Nearest needs a saved service address'}>
            <select value={sort} onChange={(event) => setChosenSort(event.target.value as SortKey)}>
              {sortKeys.map((key) => (
                <option key={key} value={key} disabled={key === 'nearest' && !addressSaved}>
                  {sortLabels[key]}
                </option>
              ))}
            </select>
          </Field>
          <div className="sm:col-span-2 lg:col-span-3">
            <ServiceAddressField area={area} onAreaChange={onAreaChange} saved={saved} />
          </div>
          <Field id="worker-within" label="Within" hint={withinHint}>
            <select value={within} onChange={(event) => setWithin(event.target.value)}>
              <option value="">Any distance</option>
              {withinChoices.map((distance) => (
                <option key={distance} value={String(distance)}>
                  {distance} {unitWord(distance, settings.distanceUnit)}
                </option>
              ))}
            </select>
          </Field>
        </form>
      </Card>

      <Results
        searched={searched}
        workers={workers}
        total={all.length}
        shown={shown}
        categoryName={categoryName}
        withinText={withinText}
        settings={settings}
        onHire={onHire}
      />
    </section>
  );
}

function Results({
  searched,
  workers,
  total,
  shown,
  categoryName,
  withinText,
  settings,
  onHire,
}: {
  searched: boolean;
  workers: UseQueryResult<WorkerListingView[]>;
  total: number;
  shown: WorkerListingView[];
  categoryName: string | undefined;
  /** "within 10 miles" while a distance limit applies. */
  withinText: string | null;
  settings: DisplaySettings;
  onHire: (worker: WorkerListingView) => void;
}) {
  if (!searched) {
    return (
      <Card className="text-center text-slate-200">
        <p>Press Find Available Workers to see the verified professionals who can take a job now.</p>
      </Card>
    );
  }

  if (workers.isPending) {
    return (
      <div aria-busy="true">
        <p role="status" className="sr-only">
          Loading available workers...
        </p>
        <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: SKELETON_CARDS }, (_, i) => (
            <WorkerCardSkeleton key={i} />
          ))}
        </div>
      </div>
    );
  }

  if (workers.isError && total === 0) {
    // The server's own sentence when it gave one (a 429 says when to try again).
    return <LoadError message={errorMessage(workers.error) ?? "We couldn't load the available workers."} onRetry={() => void workers.refetch()} retrying={workers.isFetching} />;
  }

  const updating = workers.isFetching;
  return (
    <div className="grid gap-4" aria-busy={updating}>
      <p role="status" className="text-sm text-slate-200">
        {updating
          ? 'Updating the list...'
          : total === 0
            ? ''
            : `Showing ${shown.length} of ${total} available ${total === 1 ? 'professional' : 'professionals'}${categoryName ? ` in ${categoryName}` : ''}${withinText ? ` ${withinText}` : ''}.`}
      </p>
      {workers.isError ? (
        <LoadError message="We couldn't refresh the list; these are the workers from the last search." onRetry={() => void workers.refetch()} />
      ) : null}
      {shown.length === 0 && !updating ? (
        <Card className="text-center">
          <SearchX aria-hidden="true" className="mx-auto mb-3 size-10 text-slate-400" />
          <h3 className="text-lg font-semibold text-white">No Workers Found</h3>
          <p className="mt-2 text-slate-300">
            {total === 0
              ? withinText
                ? `No professional${categoryName ? ` in ${categoryName}` : ''} is available ${withinText} right now. Try a larger distance, another category, or check back later.`
                : `No professional${categoryName ? ` in ${categoryName}` : ''} is available right now. Try another category, or check back later.`
              : 'No one matches your search or price. Change the filters, try another category, or check back later.'}
          </p>
        </Card>
      ) : (
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {shown.map((worker) => (
            <li key={worker.id}>
              <WorkerCard worker={worker} settings={settings} onHire={onHire} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
