import { useMutation } from '@tanstack/react-query';
import { Phone, Search } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { trackLookupSchema, type TrackLookupInput } from '../../../../shared/schemas/tracking';
import { validate } from '../../../../shared/validation';
import { Field, inputClasses } from '../../components/ui/field';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { useFormErrors } from '../../lib/use-form-errors';
import { isBookingNumber, lookupFailureOf, type LookupFailure } from '../../domain/jobs/job-timeline';
import { FormAlert } from '../../components/ui/form-alert';

const lookupFields = ['number', 'phone'] as const;

/**
 * Two ways to a booking: the full id (in the tracking link), or the 8-character number a screen
 * showed together with the phone number it was made with. A number typed into the id box is taken
 * to the second form rather than to a "not found".
 */
export default function FindBooking() {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [number, setNumber] = useState('');
  const [phone, setPhone] = useState('');
  const [movedNumber, setMovedNumber] = useState(false);
  const [failure, setFailure] = useState<LookupFailure | null>(null);
  const { errors, show, clear, refFor } = useFormErrors(lookupFields);
  const phoneInput = useRef<HTMLInputElement | null>(null);
  const trimmed = value.trim();

  const lookup = useMutation({
    mutationFn: (input: TrackLookupInput) => api('POST /api/track/lookup', { body: input }),
    onSuccess: (found) => void navigate(paths.track(found.id)),
    onError: (error) => {
      const problem = lookupFailureOf(error);
      setFailure(problem);
      show(problem.fields);
    },
  });

  const onIdSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!trimmed) return;
    if (isBookingNumber(trimmed)) {
      setNumber(trimmed.toUpperCase());
      setMovedNumber(true);
      setFailure(null);
      phoneInput.current?.focus();
      return;
    }
    void navigate(paths.track(trimmed));
  };

  const onLookupSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (lookup.isPending) return;
    setFailure(null);
    const checked = validate(trackLookupSchema, { number: number.trim(), phone: phone.trim() });
    if (!checked.success) return show(checked.fields);
    clear();
    lookup.mutate(checked.data);
  };

  return (
    <div className="grid gap-6">
      <Card className="mx-auto w-full max-w-lg">
        <form onSubmit={onIdSubmit} className="grid gap-4">
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

      <Card className="mx-auto w-full max-w-lg">
        <h2 id="find-by-number-title" className="text-xl font-bold text-white">
          Find it with your phone number
        </h2>
        <p className="mt-1 text-sm text-slate-300">Use the booking number shown on screen and the phone number you booked with.</p>
        {/* Present from the start, so the note is read out when a number moves here from the box above. */}
        <p role="status" className="mt-2 text-sm font-medium text-amber-200">
          {movedNumber ? 'That is a booking number: enter the phone number you booked with to find it.' : ''}
        </p>
        <form noValidate onSubmit={onLookupSubmit} aria-busy={lookup.isPending} className="mt-2 grid gap-4">
          {failure ? <FormAlert title={failure.title} message={failure.message} /> : null}
          <Field id="track-number" label="Booking number" hint="8 characters, as shown on screen." error={errors.number}>
            <input
              ref={refFor('number')}
              type="text"
              autoComplete="off"
              spellCheck={false}
              maxLength={8}
              value={number}
              onChange={(event) => setNumber(event.target.value)}
              className="font-mono uppercase"
            />
          </Field>
          <Field id="track-phone" label="Phone number" error={errors.phone}>
            <input
              ref={(el) => {
                phoneInput.current = el;
                refFor('phone')(el);
              }}
              type="tel"
              autoComplete="tel"
              inputMode="tel"
              value={phone}
              onChange={(event) => setPhone(event.target.value)}
            />
          </Field>
          <Button type="submit" variant="outline" disabled={lookup.isPending}>
            <Phone aria-hidden="true" className="size-4" /> {lookup.isPending ? 'Finding...' : 'Find Booking'}
          </Button>
        </form>
      </Card>

      <p className="mx-auto w-full max-w-lg text-center text-sm text-slate-300">
        No number at hand? Get every request made with your email on this device:{' '}
        <Link to={paths.findRequests} className="font-semibold text-amber-300 underline">
          Find my requests
        </Link>
      </p>
    </div>
  );
}
