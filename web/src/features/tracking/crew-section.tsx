import { Star } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { TrackedRequestView } from '../../../../shared/schemas/job';
import type { CrewMemberView } from '../../../../shared/schemas/views/job';
import { proRatingText } from '../../domain/jobs/job-timeline';
import { CrewMap } from '../../domain/location/job-tracking';
import { pointOf } from '../../domain/location/tracking';
import { initialsOf } from '../../lib/initials';
import { paths } from '../../lib/paths';
import { useRealtimeEvent } from '../../lib/realtime';
import { useNow } from '../../lib/use-now';
import { crewMapPoints, crewMemberStateLabel, crewMemberTimeText, crewPlaceName } from './crew-display';

const travelling = (member: Pick<CrewMemberView, 'jobState'>) => member.jobState === 'accepted' || member.jobState === 'en_route';
const onSite = (member: Pick<CrewMemberView, 'jobState'>) => travelling(member) || member.jobState === 'arrived' || member.jobState === 'in_progress';

/**
 * "Your crew" on the request's page: each pro's place, who holds it, where they stand, and a link to
 * their own job's page; one map with every pro whose position is known while any is on their way or
 * on site. Positions come with the polled request and, between polls, from each pro's live points.
 */
export default function CrewSection({ view, crew }: { view: TrackedRequestView; crew: CrewMemberView[] }) {
  const now = useNow(crew.some(travelling) ? 30_000 : null);
  const [live, setLive] = useState<Record<string, { lat: number; lng: number }>>({});
  useRealtimeEvent('worker:loc', (data) => {
    if (!crew.some((member) => member.jobId === data.jobId)) return;
    const point = pointOf(data.lat, data.lng);
    if (point) setLive((known) => ({ ...known, [data.jobId]: point }));
  });
  const positioned = crew
    .filter(onSite)
    .map((member) => {
      const point = live[member.jobId];
      return point ? { ...member, position: { lat: point.lat, lng: point.lng, at: member.position?.at ?? '' } } : member;
    });
  const pros = crewMapPoints(positioned);

  return (
    <section aria-labelledby="crew-title" className="mt-6 grid gap-3" data-testid="crew">
      <h3 id="crew-title" className="text-lg font-semibold text-white">
        Your crew
      </h3>
      <p className="text-sm text-slate-300">{`${view.workerCount} pros on this request, each with their own page.`}</p>
      <ol className="grid gap-2">
        {crew.map((member) => (
          <CrewMemberRow key={member.jobId} member={member} now={now} lead={member.jobId === view.id} />
        ))}
      </ol>
      {pros.length > 0 ? <CrewMap customer={pointOf(view.clientLatitude, view.clientLongitude)} pros={pros} /> : null}
    </section>
  );
}

function CrewMemberRow({ member, now, lead }: { member: CrewMemberView; now: number; lead: boolean }) {
  const [photoFailed, setPhotoFailed] = useState(false);
  const place = crewPlaceName(member);
  const { worker } = member;
  const time = crewMemberTimeText(member, now);
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-xl bg-slate-950/60 p-3" data-testid="crew-member" data-index={member.index} data-state={member.jobState}>
      {worker?.photoUrl && !photoFailed ? (
        <img src={worker.photoUrl} alt="" onError={() => setPhotoFailed(true)} className="size-10 shrink-0 rounded-full object-cover" />
      ) : (
        <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-blue-700 font-bold text-white">
          {worker ? initialsOf(worker.name) : member.index}
        </span>
      )}
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-white">
          {place}
          {worker ? `: ${worker.name}` : null}
        </p>
        {worker ? (
          <p className="flex items-center gap-1 text-sm text-slate-200">
            <Star aria-hidden="true" className="size-4 shrink-0 fill-amber-400 text-amber-400" />
            <span>
              <span className="sr-only">Rating: </span>
              {proRatingText(worker)}
            </span>
          </p>
        ) : null}
        <p className="text-sm text-slate-100" data-testid="crew-member-state">
          {crewMemberStateLabel(member)}
          {time ? <span className="text-slate-300">{` · ${time}`}</span> : null}
        </p>
        {member.arrivalClaim ? <p className="text-sm text-amber-200">Says they have arrived: confirm it on their page.</p> : null}
      </div>
      {lead ? (
        <span className="text-sm text-slate-300">This page</span>
      ) : (
        <Link to={paths.track(member.jobId)} className="text-sm font-medium text-amber-300 underline-offset-4 hover:underline">
          Open<span className="sr-only">{` ${place}'s page`}</span>
        </Link>
      )}
    </li>
  );
}
