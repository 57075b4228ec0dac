import { useQuery } from '@tanstack/react-query';
import { Ban, Check, Search } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { categories } from '../../../../shared/categories';
import { bookingNumber, type Booking } from '../../../../shared/schemas/booking';
import { PageHeader } from '../../components/layout/page-header';
import { inputClasses } from '../../components/form/field';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useHydrated } from '../../lib/use-hydrated';
import { bookingQueryKey, trackedBookingId } from './booking-query';
import { statusBadgeOf, timelineSteps } from './booking-status';

export default function TrackPage() {
  const { search } = useLocation();
  const id = trackedBookingId(search);
  useDocumentTitle('Track a Booking');
  // The prerendered page is made without a query string: the booking or the form comes once hydrated.
  const hydrated = useHydrated();
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <PageHeader title="Track Your Booking" subtitle="Follow your request from booking to completion." />
      {!hydrated ? <Skeleton className="mx-auto h-48 max-w-lg" /> : id ? <BookingDetails key={id} id={id} /> : <TrackForm />}
    </div>
  );
}

function TrackForm() {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const trimmed = value.trim();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (trimmed) void navigate(paths.track(trimmed));
  };
  return (
    <Card className="mx-auto max-w-lg">
      <form onSubmit={onSubmit} className="grid gap-4">
        <div>
          <label htmlFor="track-booking-id" className="mb-1.5 block text-sm font-semibold text-slate-100">
            Enter Booking ID
          </label>
          <input
            id="track-booking-id"
            type="text"
            autoComplete="off"
            spellCheck={false}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            aria-describedby="track-booking-id-hint"
            className={cn(inputClasses, 'border-slate-300 font-mono')}
          />
          <p id="track-booking-id-hint" className="mt-1 text-sm text-slate-300">
            The booking ID is in the address of the page you saw after booking.
          </p>
        </div>
        <Button type="submit" disabled={!trimmed}>
          <Search aria-hidden="true" className="size-4" /> Check Status
        </Button>
      </form>
    </Card>
  );
}

function categoryName(slug: string): string {
  return categories.find((c) => c.slug === slug)?.name ?? slug;
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

function BookingDetails({ id }: { id: string }) {
  const navigate = useNavigate();
  // Until realtime arrives, the page follows the job by polling; a finished booking stops.
  const booking = useQuery<Booking>({
    queryKey: bookingQueryKey(id),
    refetchInterval: (query) => (isFinal(query.state.data) ? false : TRACK_POLL_MS),
  });

  if (booking.isPending) {
    return (
      <Card aria-busy="true">
        <p role="status" className="mb-4 text-slate-200">
          Loading booking...
        </p>
        <Skeleton className="mb-3 h-6 w-1/3" />
        <Skeleton className="mb-3 h-4 w-2/3" />
        <Skeleton className="h-4 w-1/2" />
      </Card>
    );
  }

  if (booking.isError) {
    return (
      <Card role="alert" className="mx-auto max-w-lg text-center">
        <h2 className="text-2xl font-bold text-white">Booking Not Found</h2>
        <p className="mt-2 text-slate-200">The booking ID you entered could not be found.</p>
        <Button className="mt-6" onClick={() => void navigate(paths.track())}>
          Try Again
        </Button>
      </Card>
    );
  }

  const { name, category, address, details, status, dispatch, createdAt } = booking.data;
  const badge = statusBadgeOf(status);
  const steps = timelineSteps(status);

  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm text-slate-300">Booking number</p>
          <h2 className="font-mono text-2xl font-bold tracking-wider text-white">{bookingNumber(booking.data.id)}</h2>
        </div>
        <div className="text-right">
          <p className="text-sm text-slate-300">
            Status
          </p>
          <Badge tone={badge.tone} data-testid="booking-status" data-status={status} className="mt-1 text-sm">
            {badge.label}
          </Badge>
        </div>
      </div>

      <dl className="mt-6 grid gap-4 sm:grid-cols-2">
        <Detail term="Name" value={name} />
        <Detail term="Service" value={categoryName(category)} />
        <Detail term="Address" value={address} />
        <Detail term="Requested" value={<time dateTime={createdAt}>{formatDate(createdAt)}</time>} />
        {details ? <Detail term="Details" value={details} wide /> : null}
      </dl>

      <section aria-labelledby="progress-title" className="mt-8">
        <h3 id="progress-title" className="text-lg font-semibold text-white">
          Progress
        </h3>
        {dispatch === 'no_worker_available' && status === 'new' ? (
          <p role="status" className="mt-3 rounded-lg bg-amber-950/70 p-3 text-amber-50">
            <strong className="block font-semibold">No worker available</strong>
            None of our nearby professionals could take this booking in time. Please try again later or{' '}
            <a className="underline" href={paths.contact}>
              contact us
            </a>
            .
          </p>
        ) : null}
        {status === 'cancelled' ? (
          <p className="mt-3 flex items-center gap-2 rounded-lg bg-red-950/70 p-3 text-red-100">
            <Ban aria-hidden="true" className="size-5 shrink-0" /> This booking was cancelled.
          </p>
        ) : (
          <ol className="mt-4 grid gap-4 sm:grid-cols-4">
            {steps.map((step, index) => (
              <li
                key={step.status}
                aria-current={step.current ? 'step' : undefined}
                className={cn(
                  'flex items-center gap-3 rounded-lg p-3 sm:flex-col sm:text-center',
                  step.current ? 'bg-amber-400/15 ring-2 ring-amber-300' : 'bg-slate-950/50',
                )}
              >
                <span
                  className={cn(
                    'flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-bold',
                    step.state === 'done' ? 'bg-green-500 text-slate-950' : 'bg-slate-700 text-slate-100',
                  )}
                >
                  {step.state === 'done' ? <Check aria-hidden="true" className="size-5" /> : index + 1}
                </span>
                <span className={cn('text-sm', step.state === 'done' ? 'font-semibold text-white' : 'text-slate-300')}>
                  {step.label}
                  <span className="sr-only">{step.current ? ' (current step)' : step.state === 'done' ? ' (done)' : ' (not yet)'}</span>
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </Card>
  );
}

const TRACK_POLL_MS = 10_000;

function isFinal(booking: Booking | undefined): boolean {
  return booking?.status === 'completed' || booking?.status === 'cancelled' || booking?.dispatch === 'no_worker_available';
}

function Detail({ term, value, wide }: { term: string; value: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <dt className="text-sm text-slate-300">{term}</dt>
      <dd className="mt-0.5 break-words text-slate-100">{value}</dd>
    </div>
  );
}
