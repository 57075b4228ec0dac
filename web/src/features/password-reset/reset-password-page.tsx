import { useMutation } from '@tanstack/react-query';
import { KeyRound, LogIn } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { passwordResetCompleteSchema } from '../../../../shared/schemas/auth';
import { validate } from '../../../../shared/validation';
import { PageHeader } from '../../components/layout/page-header';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { FormAlert } from '../../components/ui/form-alert';
import { ApiError, api, errorMessage } from '../../lib/api';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { isNetworkError, useFormFields } from '../../lib/use-form-errors';
import { tokenFromHash, withoutFragment } from '../../lib/link-fragment';

const fieldOrder = ['password', 'confirmPassword'] as const;
const INCOMPLETE = 'This link is incomplete. Open it again from the mail exactly as it was sent, or send a new link.';

/** The login page of whoever the link belonged to, as the server answered it. */
const loginOf = { worker: paths.workerLogin, admin: paths.adminLogin } as const;

function SendNewLink() {
  return (
    <Link to={paths.forgotPassword} className={buttonClasses('outline', 'md')}>
      Send a new link
    </Link>
  );
}

/**
 * Where a mailed reset link lands. The secret is read from the fragment once, then taken out of the
 * address bar (history.replaceState). The new password follows the same rules as every new password
 * (the shared schema). Nobody is signed in by it: success leads to the right login page.
 */
export default function ResetPasswordPage() {
  useDocumentTitle('Choose a New Password');
  const [token] = useState(() => (typeof window === 'undefined' ? undefined : tokenFromHash(window.location.hash)));
  const { values, setValues, bind, errors, show, clear } = useFormFields(fieldOrder, { password: '', confirmPassword: '' });
  /** The server's word that this link sets no password any more (used, expired, unknown). */
  const [dead, setDead] = useState<string | undefined>(token ? undefined : INCOMPLETE);

  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', withoutFragment(window.location));
  }, []);

  const reset = useMutation({
    mutationFn: (input: { token: string; password: string; confirmPassword: string }) => api('POST /api/auth/password-reset/complete', { body: input }),
    onSuccess: () => setValues({ password: '', confirmPassword: '' }),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 410) return setDead(errorMessage(error) ?? INCOMPLETE);
      if (error instanceof ApiError && error.status === 400) {
        const { token: tokenProblem, ...fields } = error.fields;
        if (tokenProblem) return setDead(tokenProblem);
        return show(fields);
      }
      show({ _: isNetworkError(error) ? 'We could not reach the server. Please try again.' : (errorMessage(error) ?? 'Please try again.') });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (reset.isPending || !token) return;
    const result = validate(passwordResetCompleteSchema, { token, ...values });
    if (!result.success) return show(result.fields);
    clear();
    reset.mutate(result.data);
  };


  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <PageHeader
        title="Choose a New Password"
        subtitle="It signs you out everywhere you were signed in."
        icon={<KeyRound aria-hidden="true" className="size-12 text-amber-300" />}
      />
      <Card>
        {reset.isSuccess ? (
          <div className="grid gap-5">
            <FormAlert tone="success" message="Password changed. Sign in with your new password." />
            <Link to={loginOf[reset.data.role]} className={buttonClasses('primary', 'lg')}>
              <LogIn aria-hidden="true" className="size-4" /> Sign in
            </Link>
          </div>
        ) : dead ? (
          <div className="grid gap-5">
            <FormAlert message={dead} />
            <SendNewLink />
          </div>
        ) : (
          <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={reset.isPending}>
            <FormAlert message={errors._} />
            <Field id="reset-password" label="New password" hint="At least 8 characters, and not a common one." error={errors.password}>
              <input type="password" autoComplete="new-password" {...bind('password')} />
            </Field>
            <Field id="reset-confirm" label="Confirm new password" error={errors.confirmPassword}>
              <input type="password" autoComplete="new-password" {...bind('confirmPassword')} />
            </Field>
            <Button type="submit" size="lg" disabled={reset.isPending}>
              {reset.isPending ? 'Saving…' : 'Set new password'}
            </Button>
          </form>
        )}
      </Card>
    </div>
  );
}
