import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, Mail } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { passwordResetRequestSchema } from '../../../../shared/schemas/auth';
import { validate } from '../../../../shared/validation';
import { PageHeader } from '../../components/layout/page-header';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { FormAlert } from '../../components/ui/form-alert';
import { ApiError, api, errorMessage } from '../../lib/api';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { isNetworkError, useFormErrors } from '../../lib/use-form-errors';

const fieldOrder = ['email'] as const;

/**
 * "Forgot password?" for a pro or the owner: one email field. The answer is the server's own, the
 * same whether or not an account uses the address, so the page promises no more than it does.
 */
export default function ForgotPasswordPage() {
  useDocumentTitle('Forgot Password');
  const [email, setEmail] = useState('');
  const { errors, show, clear, refFor } = useFormErrors(fieldOrder);

  const request = useMutation({
    mutationFn: (input: { email: string }) => api('POST /api/auth/password-reset', { body: input }),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) return show(error.fields);
      show({ _: isNetworkError(error) ? 'We could not reach the server. Please try again.' : (errorMessage(error) ?? 'Please try again.') });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (request.isPending) return;
    const result = validate(passwordResetRequestSchema, { email });
    if (!result.success) return show(result.fields);
    clear();
    request.mutate(result.data);
  };

  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <PageHeader
        title="Forgot Password"
        subtitle="Enter the email address you sign in with, or the owner account's email. We'll mail you a link to choose a new password."
        icon={<Mail aria-hidden="true" className="size-12 text-amber-300" />}
      />
      <Card>
        {request.isSuccess ? (
          <div className="grid gap-5">
            <FormAlert tone="success" title="Check your mail" message={request.data.message} />
            <p className="text-sm text-slate-200">
              The link works once. Nothing arrived? Look in your spam folder, check the address, or ask again in a few minutes.
            </p>
            <Button variant="outline" onClick={() => request.reset()}>
              Use another address
            </Button>
          </div>
        ) : (
          <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={request.isPending}>
            <FormAlert message={errors._} />
            <Field id="forgot-email" label="Email" error={errors.email}>
              <input ref={refFor('email')} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            </Field>
            <Button type="submit" size="lg" disabled={request.isPending}>
              {request.isPending ? 'Sending…' : 'Send reset link'}
            </Button>
          </form>
        )}
        <div className="mt-6 grid gap-2 border-t border-white/10 pt-6 text-sm">
          <Link to={paths.workerLogin} className="inline-flex items-center gap-2 font-semibold text-amber-300 underline-offset-4 hover:underline">
            <ArrowLeft aria-hidden="true" className="size-4" /> Back to Worker Login
          </Link>
          <Link to={paths.adminLogin} className="inline-flex items-center gap-2 font-semibold text-amber-300 underline-offset-4 hover:underline">
            <ArrowLeft aria-hidden="true" className="size-4" /> Back to Owner Login
          </Link>
        </div>
      </Card>
    </div>
  );
}
