import { Phone, Star } from 'lucide-react';
import { useState } from 'react';
import type { AssignedWorkerView } from '../../../../shared/schemas/job';
import { initialsOf } from '../../lib/initials';
import { proRatingText } from './job-timeline';

/** The pro who took the job: photo (or initials), name, rating and a phone link to call them. */
export function AssignedPro({ worker, caption = 'Your professional' }: { worker: AssignedWorkerView; caption?: string }) {
  // A photo link can expire or break; the initials stand in rather than a broken image.
  const [photoFailed, setPhotoFailed] = useState(false);
  const rating = proRatingText(worker);
  return (
    <div className="flex items-center gap-3 rounded-xl bg-slate-950/60 p-3" data-testid="assigned-pro">
      {worker.photoUrl && !photoFailed ? (
        <img src={worker.photoUrl} alt="" onError={() => setPhotoFailed(true)} className="size-12 shrink-0 rounded-full object-cover" />
      ) : (
        <span aria-hidden="true" className="flex size-12 shrink-0 items-center justify-center rounded-full bg-blue-700 text-lg font-bold text-white">
          {initialsOf(worker.name)}
        </span>
      )}
      <div className="min-w-0">
        <p className="text-sm text-slate-300">{caption}</p>
        <p className="font-semibold text-white">{worker.name}</p>
        <p className="flex items-center gap-1 text-sm text-slate-200">
          <Star aria-hidden="true" className="size-4 shrink-0 fill-amber-400 text-amber-400" />
          <span>
            <span className="sr-only">Rating: </span>
            {rating}
          </span>
        </p>
        {worker.phone ? (
          <a
            href={`tel:${worker.phone.replace(/[^+0-9]/g, '')}`}
            className="inline-flex items-center gap-1 text-sm font-medium text-amber-300 underline-offset-4 hover:underline"
          >
            <Phone aria-hidden="true" className="size-4" />
            <span className="sr-only">Call </span>
            {worker.phone}
          </a>
        ) : null}
      </div>
    </div>
  );
}
