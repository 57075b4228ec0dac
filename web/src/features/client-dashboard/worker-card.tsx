import { MapPin, Star } from 'lucide-react';
import { useState } from 'react';
import type { WorkerListingView } from '../../../../shared/schemas/job';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { defaultDisplaySettings, type DisplaySettings } from '../../lib/config';
import { initialsOf } from '../../lib/initials';
import { bandLabel, hourlyRateLabel, ratingText, shownAreas } from './format';

export function WorkerCard({
  worker,
  settings = defaultDisplaySettings,
  onHire,
}: {
  worker: WorkerListingView;
  /** The configured currency, locale and distance unit. */
  settings?: DisplaySettings;
  onHire: (worker: WorkerListingView) => void;
}) {
  const rating = ratingText(worker.rating, worker.reviewCount);
  const distance = bandLabel(worker.distanceBand);
  const specialties = worker.specialties.slice(0, 3);
  const areas = shownAreas(worker.serviceAreas);
  return (
    <Card className="flex h-full flex-col gap-4 p-5">
      <article aria-label={worker.fullName} className="flex h-full flex-col gap-4" data-testid="worker-card" data-worker-id={worker.id}>
        <div className="flex items-center gap-4">
          <Avatar name={worker.fullName} photoUrl={worker.photoUrl} />
          <div className="min-w-0">
            <h3 className="truncate text-lg font-semibold text-white">{worker.fullName}</h3>
            <p className="flex items-center gap-1.5 text-sm text-slate-200">
              {rating.reviews ? (
                <>
                  <Star aria-hidden="true" className="size-4 fill-amber-300 text-amber-300" />
                  <span aria-hidden="true" className="font-semibold text-white">
                    {rating.visible}
                  </span>
                  <span aria-hidden="true">({rating.reviews})</span>
                </>
              ) : (
                <Badge tone="slate" aria-hidden="true">
                  New
                </Badge>
              )}
              <span className="sr-only">{rating.spoken}</span>
            </p>
          </div>
        </div>

        {specialties.length > 0 ? (
          <ul aria-label="Specialties" className="flex flex-wrap gap-2">
            {specialties.map((s) => (
              <li key={s} className="rounded-full bg-amber-400/15 px-3 py-1 text-xs font-semibold text-amber-200">
                {s}
              </li>
            ))}
          </ul>
        ) : null}

        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-300">Rate</dt>
          <dd className="font-semibold text-white">{hourlyRateLabel(worker.hourlyRate, settings)}</dd>
          {worker.yearsExperience > 0 ? (
            <>
              <dt className="text-slate-300">Experience</dt>
              <dd className="text-white">
                {worker.yearsExperience} {worker.yearsExperience === 1 ? 'year' : 'years'}
              </dd>
            </>
          ) : null}
          {areas.length > 0 ? (
            <>
              <dt className="text-slate-300">Serves</dt>
              {/* Areas carry their own commas ("San Francisco, CA"), so they are set apart otherwise. */}
              <dd className="text-white">{areas.join('; ')}</dd>
            </>
          ) : null}
          {distance ? (
            <>
              <dt className="flex items-center gap-1 text-slate-300">
                <MapPin aria-hidden="true" className="size-3.5" /> Distance
              </dt>
              <dd className="text-white">{distance}</dd>
            </>
          ) : null}
        </dl>

        {worker.isAvailable === 'false' ? (
          <p className="text-sm text-orange-200">On a job right now: if they can't take yours, the next nearest professional is asked.</p>
        ) : null}

        <Button className="mt-auto w-full" onClick={() => onHire(worker)}>
          Hire Now
        </Button>
      </article>
    </Card>
  );
}

function Avatar({ name, photoUrl }: { name: string; photoUrl: string | null }) {
  // A presigned photo link can expire while the page is open; the initials stand in for that link
  // only, so the fresh one of the next refresh shows the face again.
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null);
  if (photoUrl && photoUrl !== brokenUrl) {
    return (
      <img
        src={photoUrl}
        alt=""
        width={64}
        height={64}
        decoding="async"
        onError={() => setBrokenUrl(photoUrl)}
        className="size-16 shrink-0 rounded-full object-cover ring-2 ring-white/20"
      />
    );
  }
  return (
    <div aria-hidden="true" className="flex size-16 shrink-0 items-center justify-center rounded-full bg-slate-700 text-xl font-bold text-white ring-2 ring-white/20">
      {initialsOf(name)}
    </div>
  );
}

export function WorkerCardSkeleton() {
  return (
    <Card className="grid gap-4 p-5">
      <div className="flex items-center gap-4">
        <Skeleton className="size-16 rounded-full" />
        <div className="grid flex-1 gap-2">
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-4 w-1/3" />
        </div>
      </div>
      <Skeleton className="h-6 w-3/4" />
      <Skeleton className="h-16 w-full" />
      <Skeleton className="h-11 w-full" />
    </Card>
  );
}
