import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { BookingInput } from '../../../../shared/schemas/booking';
import type { Service } from '../../../../shared/schemas/service';
import { Field } from '../../components/ui/field';
import { PageHeader } from '../../components/layout/page-header';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api, errorMessage } from '../../lib/api';
import { useSubmissionKey } from '../../lib/submission-key';
import { paths } from '../../lib/paths';
import { queryKeys } from '../../lib/query-keys';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useTypedBeforeHydration } from '../../lib/typed-before-hydration';
import { useHydrated } from '../../lib/use-hydrated';
import { firstInvalidField, validateBooking, type BookingField, type BookingFormValues } from './booking-form';
import { FormAlert } from '../../components/ui/form-alert';
import { DEFAULT_JOB_SIZE, type JobSize } from '../../../../shared/job-sizes';
import { EstimateChoice } from '../../domain/estimate/estimate-choice';
import { requestedInstant, type WhenChoice } from '../../domain/estimate/estimate';

export default function BookPage() {
  useDocumentTitle('Book a Service');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const services = useQuery<Service[]>({ queryKey: queryKeys.services });
  // The HTML was rendered for bare /book: a link's ?category= joins once hydrated, so the page is
  // hydrated (keeping what was typed) rather than replaced. The list is disabled until then anyway.
  const hydrated = useHydrated();
  const linkedCategory = searchParams.get('category') ?? '';

  const [values, setValues] = useState<BookingFormValues>({
    name: '',
    phone: '',
    address: '',
    category: hydrated ? linkedCategory : '',
    details: '',
    email: '',
  });
  useEffect(() => {
    if (hydrated && linkedCategory) setValues((v) => (v.category ? v : { ...v, category: linkedCategory }));
  }, [hydrated, linkedCategory]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [when, setWhen] = useState<WhenChoice>({ asap: true });
  const [size, setSize] = useState<JobSize>(DEFAULT_JOB_SIZE);
  const refs = useRef<Partial<Record<BookingField, HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null>>>({});
  // /book is prerendered: what was typed before the app took over is the form's too.
  const form = useRef<HTMLFormElement>(null);
  useTypedBeforeHydration(form);

  // A ?category= that names no category is dropped once the list is known.
  useEffect(() => {
    if (services.data && values.category && !services.data.some((s) => s.slug === values.category)) {
      setValues((v) => ({ ...v, category: '' }));
    }
  }, [services.data, values.category]);

  const showErrors = (next: Record<string, string>) => {
    setErrors(next);
    const first = firstInvalidField(next);
    if (first) refs.current[first]?.focus();
  };

  const submission = useSubmissionKey();
  const createBooking = useMutation({
    mutationFn: (input: BookingInput) => api('POST /api/bookings', { body: input, idempotencyKey: submission.current() }),
    onSuccess: (booking) => {
      submission.done();
      // The tracking page shows the booking number, the link to keep and copy, and the timeline.
      toast({ title: 'Request sent!', description: "We'll connect you with a professional shortly." });
      void queryClient.invalidateQueries({ queryKey: queryKeys.customerRequests });
      void navigate(paths.track(booking.id));
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) showErrors(error.fields);
      toast({ title: 'Booking failed', description: errorMessage(error) ?? 'Please try again', variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (createBooking.isPending) return;
    const result = validateBooking(values);
    if (!result.ok) return showErrors(result.errors);
    if (requestedInstant(when) === undefined) return showErrors({ _: 'Choose a date and time, or As soon as possible.' });
    setErrors({});
    createBooking.mutate({ ...result.input, requestedTime: requestedInstant(when) ?? null, jobSize: size });
  };

  const bind = <K extends BookingField>(field: K) => ({
    name: field,
    value: values[field],
    ref: (el: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null) => {
      refs.current[field] = el;
    },
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((v) => ({ ...v, [field]: value }));
    },
  });

  const sending = createBooking.isPending;

  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <PageHeader title="Book a Service" subtitle="Tell us what you need and we’ll match you with a professional nearby." />
      <Card>
        <form ref={form} noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={sending}>
          <FormAlert message={errors._} />
          <Field id="booking-name" label="Name" error={errors.name}>
            <input type="text" autoComplete="name" {...bind('name')} />
          </Field>
          <Field id="booking-phone" label="Phone" hint="At least 10 digits, so the professional can call you." error={errors.phone}>
            <input type="tel" autoComplete="tel" inputMode="tel" {...bind('phone')} />
          </Field>
          <Field id="booking-email" label="Email (optional)" hint="We send your confirmation and tracking link here." error={errors.email}>
            <input type="email" autoComplete="email" inputMode="email" {...bind('email')} />
          </Field>
          <Field id="booking-address" label="Address" error={errors.address}>
            <input type="text" autoComplete="street-address" {...bind('address')} />
          </Field>
          <Field
            id="booking-category"
            label="Service category"
            hint={services.isPending ? 'Loading categories...' : undefined}
            error={errors.category ?? (services.isError ? 'We couldn’t load the categories.' : undefined)}
          >
            <select {...bind('category')} disabled={services.isPending}>
              <option value="">Choose a category</option>
              {services.data?.map((service) => (
                <option key={service.id} value={service.slug}>
                  {service.name}
                </option>
              ))}
            </select>
          </Field>
          {services.isError ? (
            <Button variant="outline" size="sm" className="justify-self-start" onClick={() => void services.refetch()}>
              Retry loading categories
            </Button>
          ) : null}
          <Field id="booking-details" label="Details (optional)" hint="What needs doing, access notes, preferred times." error={errors.details}>
            <textarea rows={4} {...bind('details')} />
          </Field>
          <EstimateChoice
            idPrefix="booking"
            inputs={{ category: values.category || null }}
            when={when}
            size={size}
            onWhen={setWhen}
            onSize={setSize}
          />
          {/* Until the app runs, a press would submit the bare HTML form: a page load with what was typed in its address. */}
          <Button type="submit" size="lg" disabled={sending || !hydrated}>
            {sending ? 'Sending request...' : 'Submit booking'}
          </Button>
        </form>
      </Card>
    </div>
  );
}
