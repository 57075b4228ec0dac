import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { HireInput, ServiceRequestView, WorkerListingView } from '../../../../shared/schemas/job';
import { requestServices } from '../../../../shared/domain/requests';
import { Field } from '../../components/ui/field';
import { Button } from '../../components/ui/button';
import { ModalDialog } from '../../components/ui/modal-dialog';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api, errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { useSubmissionKey } from '../../lib/submission-key';
import { useFormErrors } from '../../lib/use-form-errors';
import { fieldsForForm, hiredRequest, hireFieldOrder, validateHire, type HireField } from './hire-form';
import type { HireFormValues } from './hire-values';
import type { Fix } from '../../domain/location/location';
import { FormAlert } from '../../components/ui/form-alert';
import { categoryForService } from '../../../../shared/domain/dispatch';
import type { RequestService } from '../../../../shared/domain/requests';
import { DEFAULT_JOB_SIZE, type JobSize } from '../../../../shared/job-sizes';
import { EstimateChoice } from '../../domain/estimate/estimate-choice';
import { requestedInstant, type WhenChoice } from '../../domain/estimate/estimate';

/** Hire Now: the form in a dialog; the job is offered to this worker first. */
export function HireDialog({
  worker,
  initial,
  fix,
  onClose,
}: {
  worker: WorkerListingView;
  initial: HireFormValues;
  fix: Fix | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<HireFormValues>(initial);
  const form = useFormErrors(hireFieldOrder);
  const { errors, show, refFor } = form;
  const [when, setWhen] = useState<WhenChoice>({ asap: true });
  const [size, setSize] = useState<JobSize>(DEFAULT_JOB_SIZE);

  const submission = useSubmissionKey();
  const hire = useMutation({
    mutationFn: (input: HireInput) => api('POST /api/hire', { body: input, idempotencyKey: submission.current() }),
    onSuccess: (body) => {
      submission.done();
      const request = hiredRequest(body);
      if (request) {
        queryClient.setQueryData<ServiceRequestView[]>(queryKeys.customerRequests, (list) => [request, ...(list ?? []).filter((r) => r.id !== request.id)]);
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.customerRequests });
      toast({
        title: 'Job Request Sent',
        description: `We've asked ${worker.fullName} first; if they can't take it, we'll offer it to the next nearest professional.`,
      });
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) {
        show(fieldsForForm(error.fields));
      } else if (error instanceof ApiError && error.status < 500) {
        // A refusal the customer can act on (say, this professional just stopped taking work).
        show({ _: errorMessage(error) ?? '' });
      }
      toast({ title: 'Hire Failed', description: 'Failed to send job request. Please try again.', variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (hire.isPending) return;
    const result = validateHire(values, worker.workerId, fix);
    if (!result.ok) return show(result.errors);
    if (requestedInstant(when) === undefined) return show({ _: 'Choose a date and time, or As soon as possible.' });
    form.clear();
    hire.mutate({ ...result.input, requestedTime: requestedInstant(when) ?? null, jobSize: size });
  };

  const bind = (field: HireField) => ({
    name: field,
    value: values[field],
    ref: refFor(field),
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((v) => ({ ...v, [field]: value }));
    },
  });

  const sending = hire.isPending;
  const id = (field: HireField) => `hire-${field}`;

  return (
    <ModalDialog
      title={`Hire ${worker.fullName}`}
      description={`We'll ask ${worker.fullName} first. If they can't take the job, it goes to the next nearest professional.`}
      onClose={onClose}
    >
      <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-busy={sending}>
        <p role="status" className="sr-only">
          {sending ? 'Sending your job request...' : ''}
        </p>
        <FormAlert message={errors._} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={id('name')} label="Name" error={errors.name}>
            <input type="text" autoComplete="name" {...bind('name')} />
          </Field>
          <Field id={id('phoneNumber')} label="Phone" error={errors.phoneNumber}>
            <input type="tel" autoComplete="tel" inputMode="tel" {...bind('phoneNumber')} />
          </Field>
        </div>
        <Field id={id('email')} label="Email" error={errors.email}>
          <input type="email" autoComplete="email" {...bind('email')} />
        </Field>
        <Field id={id('service')} label="Service" error={errors.service}>
          <select {...bind('service')}>
            <option value="">Choose a service</option>
            {requestServices.map((service) => (
              <option key={service} value={service}>
                {service}
              </option>
            ))}
          </select>
        </Field>
        <Field
          id={id('location')}
          label="Location"
          hint={
            fix && initial.location
              ? 'From your location; change it if the job is elsewhere.'
              : fix
                ? 'We have your position; type the street address for the pro.'
                : undefined
          }
          error={errors.location}
        >
          <input type="text" autoComplete="street-address" {...bind('location')} />
        </Field>
        <Field id={id('description')} label="Description" hint="What needs doing, in at least 10 characters." error={errors.description}>
          <textarea rows={4} {...bind('description')} />
        </Field>
        <EstimateChoice
          idPrefix="hire"
          inputs={{
            category: (requestServices as readonly string[]).includes(values.service) ? categoryForService(values.service as RequestService) : null,
            workerId: worker.workerId,
          }}
          when={when}
          size={size}
          onWhen={setWhen}
          onSize={setSize}
        />
        <div className="flex flex-wrap justify-end gap-3 pt-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={sending}>
            Send Job Request
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
