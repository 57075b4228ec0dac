import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, Send } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { requestServices, type RequestService } from '../../../../shared/domain/requests';
import type { ServiceRequestInput } from '../../../../shared/schemas/request';
import { Field } from '../../components/ui/field';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api, errorMessage } from '../../lib/api';
import { useSubmissionKey } from '../../lib/submission-key';
import { useFormErrors } from '../../lib/use-form-errors';
import { LocationField } from './location-field';
import { emptyRequestForm, requestFieldOrder, validateRequest, type KnownCoordinates, type RequestField, type RequestFormValues } from './request-form';
import { FormAlert } from '../../components/ui/form-alert';
import { categoryForService } from '../../../../shared/domain/dispatch';
import { DEFAULT_JOB_SIZE, type JobSize } from '../../../../shared/job-sizes';
import { EstimateChoice } from '../estimate/estimate-choice';
import { requestedInstant, type WhenChoice } from '../estimate/estimate';


/** A place the form starts from (the home page's service-location box). */
export interface StartingLocation {
  text: string;
  coordinates: KnownCoordinates | null;
}

/**
 * The shared request form (POST /api/requests): the home page opens it for the service chosen in
 * the picker, with Back; the marketing pages show it in place with their service chosen. When it
 * opens from the picker (`onBack`), focus moves to its heading, so screen readers hear where they
 * are and the next Tab reaches the first field; in place on page load it takes no focus.
 */
export function RequestFormPanel({
  service,
  onBack,
  onSubmitted,
  idPrefix = 'request',
  headingId = 'request-flow-title',
  title = 'Request a professional',
  intro = 'Tell us about the job. We send it to the nearest available professionals right away.',
  startingLocation,
}: {
  service: RequestService | '';
  onBack?: () => void;
  onSubmitted: () => void;
  /** Keeps the fields' ids apart if a page ever shows two forms. */
  idPrefix?: string;
  headingId?: string;
  title?: string;
  intro?: string;
  startingLocation?: StartingLocation | null;
}) {
  const startValues = () => ({ ...emptyRequestForm(service), location: startingLocation?.text ?? '' });
  const [values, setValues] = useState<RequestFormValues>(startValues);
  const [coordinates, setCoordinates] = useState<KnownCoordinates | null>(() => startingLocation?.coordinates ?? null);
  // A new key after a successful submit resets the location box's search state with the values.
  const [formKey, setFormKey] = useState(0);
  const { errors, show, clear, refFor } = useFormErrors(requestFieldOrder);
  const [when, setWhen] = useState<WhenChoice>({ asap: true });
  const [size, setSize] = useState<JobSize>(DEFAULT_JOB_SIZE);
  const [workerCount, setWorkerCount] = useState(1);
  const heading = useRef<HTMLHeadingElement>(null);

  const takesFocus = Boolean(onBack);
  useEffect(() => {
    if (takesFocus) heading.current?.focus();
  }, [takesFocus]);

  const submission = useSubmissionKey();
  const submit = useMutation({
    mutationFn: (input: ServiceRequestInput) => api('POST /api/requests', { body: input, idempotencyKey: submission.current() }),
    onSuccess: () => {
      submission.done();
      setValues(startValues());
      setCoordinates(startingLocation?.coordinates ?? null);
      setFormKey((key) => key + 1);
      setWorkerCount(1);
      clear();
      onSubmitted();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) show(error.fields);
      toast({ title: 'Error submitting request', description: errorMessage(error) ?? 'Please try again later.', variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submit.isPending) return;
    const result = validateRequest(values, coordinates);
    if (!result.ok) return show(result.errors);
    if (requestedInstant(when) === undefined) return show({ _: 'Choose a date and time, or As soon as possible.' });
    clear();
    submit.mutate({ ...result.input, requestedTime: requestedInstant(when) ?? null, jobSize: size, workerCount });
  };

  const bind = (field: Exclude<RequestField, 'location'>) => ({
    name: field,
    value: values[field],
    ref: refFor(field),
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((v) => ({ ...v, [field]: value }));
    },
  });

  const sending = submit.isPending;

  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} ref={heading} tabIndex={-1} className="text-2xl font-bold text-white focus:outline-none sm:text-3xl">
          {title}
        </h2>
        {onBack ? (
          <Button variant="outline" size="sm" onClick={onBack}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back
          </Button>
        ) : null}
      </div>
      <p className="mt-2 text-slate-200">{intro}</p>
      <form noValidate onSubmit={onSubmit} className="mt-6 grid gap-5 sm:grid-cols-2" aria-busy={sending}>
        <FormAlert message={errors._} className="sm:col-span-2" />
        <Field id={`${idPrefix}-name`} label="Name" error={errors.name}>
          <input type="text" autoComplete="name" {...bind('name')} />
        </Field>
        <Field id={`${idPrefix}-email`} label="Email" error={errors.email}>
          <input type="email" autoComplete="email" {...bind('email')} />
        </Field>
        <Field id={`${idPrefix}-phone`} label="Phone number" hint="At least 10 digits, so the professional can call you." error={errors.phoneNumber}>
          <input type="tel" autoComplete="tel" inputMode="tel" {...bind('phoneNumber')} />
        </Field>
        <Field id={`${idPrefix}-service`} label="Service" error={errors.service}>
          <select {...bind('service')}>
            <option value="">Choose a service</option>
            {requestServices.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <div className="sm:col-span-2">
          <LocationField
            key={formKey}
            id={`${idPrefix}-location`}
            value={values.location}
            error={errors.location}
            inputRef={refFor('location')}
            onType={(text) => {
              setValues((v) => ({ ...v, location: text }));
              setCoordinates(null);
            }}
            onLocate={(text, found) => {
              setValues((v) => ({ ...v, location: text }));
              setCoordinates(found);
            }}
          />
        </div>
        <div className="sm:col-span-2">
          <Field id={`${idPrefix}-description`} label="Description" hint="What needs doing, in at least 10 characters." error={errors.description}>
            <textarea rows={4} {...bind('description')} />
          </Field>
        </div>
        <EstimateChoice
          idPrefix={idPrefix}
          inputs={{
            category: (requestServices as readonly string[]).includes(values.service) ? categoryForService(values.service as RequestService) : null,
            location: coordinates ? { lat: coordinates.latitude, lng: coordinates.longitude } : null,
          }}
          when={when}
          size={size}
          onWhen={setWhen}
          onSize={setSize}
          workers={{ count: workerCount, onCount: setWorkerCount }}
        />
        <Button type="submit" size="lg" disabled={sending} className="sm:col-span-2">
          <Send aria-hidden="true" className="size-4" />
          Submit Request
        </Button>
      </form>
    </div>
  );
}
