import { useMutation } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { requestsLinkSchema, type RequestsLinkInput } from '../../../../shared/schemas/requests-link';
import { validate } from '../../../../shared/validation';
import { PageHeader } from '../../components/layout/page-header';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { FormAlert } from '../../components/ui/form-alert';
import { api, ApiError, errorMessage, NETWORK_ERROR_TEXT } from '../../lib/api';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { isNetworkError, useFormErrors } from '../../lib/use-form-errors';

const fieldOrder = ['email'] as const;

/**
 * "Find my requests": the requests, bookings and invoices of a browser are kept by its cookie, so
 * on another device or after clearing the browser a person asks for a link by mail instead. The
 * answer is the server's own, the same whether or not the address is known.
 */
export default function FindRequestsPage() {
  useDocumentTitle('Find my requests');
  const [email, setEmail] = useState('');
  const { errors, show, clear, refFor } = useFormErrors(fieldOrder);
  const [problem, setProblem] = useState<string | null>(null);

  const ask = useMutation({
    mutationFn: (input: RequestsLinkInput) => api('POST /api/customer/requests-link', { body: input }),
    onMutate: () => setProblem(null),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && Object.keys(error.fields).length) return show(error.fields);
      setProblem(isNetworkError(error) ? NETWORK_ERROR_TEXT : (errorMessage(error) ?? NETWORK_ERROR_TEXT));
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (ask.isPending) return;
    const checked = validate(requestsLinkSchema, { email });
    if (!checked.success) return show(checked.fields);
    clear();
    ask.mutate(checked.data);
  };

  return (
    <div className="mx-auto max-w-lg px-4 py-12">
      <PageHeader
        title="Find my requests"
        subtitle="Booked on another device, or cleared this browser? Get a link by email to see your requests, bookings and invoices here."
      />
      <Card>
        {ask.isSuccess ? (
          <div className="grid gap-4">
            <FormAlert tone="success" title="Check your email" message={ask.data.message} />
            <p className="text-sm text-slate-300">Open the link on this device. It works once; if it has expired, ask for a new one here.</p>
            <Button type="button" variant="outline" onClick={() => ask.reset()}>
              Send another link
            </Button>
          </div>
        ) : (
          <form noValidate onSubmit={onSubmit} aria-busy={ask.isPending} className="grid gap-4">
            <FormAlert message={problem} />
            <Field id="find-requests-email" label="Email address" hint="The address you gave when you booked or sent a request." error={errors.email}>
              <input
                ref={refFor('email')}
                type="email"
                name="email"
                autoComplete="email"
                inputMode="email"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
            </Field>
            <Button type="submit" disabled={ask.isPending}>
              <Mail aria-hidden="true" className="size-4" /> {ask.isPending ? 'Sending...' : 'Email me a link'}
            </Button>
          </form>
        )}
      </Card>
      <p className="mt-6 text-center text-sm text-slate-300">
        Know the booking number? <Link to={paths.track()} className="font-semibold text-amber-300 underline">Track it with your phone number</Link>.
      </p>
    </div>
  );
}
