import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, KeyRound } from 'lucide-react';
import type { FormEvent } from 'react';
import { Link, Navigate } from 'react-router';
import { changePasswordSchema, type ChangePasswordInput } from '../../../../shared/schemas/auth';
import { validate } from '../../../../shared/validation';
import { Field } from '../../components/ui/field';
import { PageHeader } from '../../components/layout/page-header';
import { PageLoading } from '../../components/layout/page-loading';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api, errorMessage } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { isNetworkError, useFormFields } from '../../lib/use-form-errors';
import { FormAlert } from '../../components/ui/form-alert';
import { OwnerEmailForm } from './owner-email-form';

const fieldOrder = ['currentPassword', 'newPassword', 'confirmPassword'] as const;
const empty: ChangePasswordInput = { currentPassword: '', newPassword: '', confirmPassword: '' };

export default function ChangePasswordPage() {
  useDocumentTitle('Change Password');
  const auth = useAuth();
  const { values, setValues, bind, errors, show, clear } = useFormFields(fieldOrder, empty);

  const change = useMutation({
    mutationFn: (input: ChangePasswordInput) => api('POST /api/auth/change-password', { body: input }),
    onSuccess: () => {
      setValues(empty);
      toast({ title: 'Password Changed', description: 'Your new password is in use. Other sessions were signed out.' });
      void auth.refresh();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) show(error.fields);
      const description = isNetworkError(error) ? 'Please try again.' : (errorMessage(error) ?? 'Please try again.');
      toast({ title: 'Password change failed', description, variant: 'destructive' });
    },
  });

  // The session is checked first; without one this screen leads home.
  if (auth.status === 'loading') return <PageLoading />;
  if (auth.status === 'signed-out') return <Navigate to={paths.home} replace />;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (change.isPending) return;
    const result = validate(changePasswordSchema, values);
    if (!result.success) return show(result.fields);
    clear();
    change.mutate(result.data);
  };


  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Link
        to={paths.dashboard}
        className="mb-6 inline-flex items-center gap-2 rounded-md text-sm font-semibold text-amber-300 hover:text-amber-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to Dashboard
      </Link>
      <PageHeader
        title="Change Password"
        subtitle={auth.user ? `Signed in as ${auth.user.username}.` : undefined}
        icon={<KeyRound aria-hidden="true" className="size-12 text-amber-300" />}
      />
      <Card>
        <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={change.isPending}>
          <FormAlert message={errors._} />
          <Field id="current-password" label="Current password" error={errors.currentPassword}>
            <input type="password" autoComplete="current-password" {...bind('currentPassword')} />
          </Field>
          <Field id="new-password" label="New password" hint="At least 8 characters." error={errors.newPassword}>
            <input type="password" autoComplete="new-password" {...bind('newPassword')} />
          </Field>
          <Field id="confirm-password" label="Confirm new password" error={errors.confirmPassword}>
            <input type="password" autoComplete="new-password" {...bind('confirmPassword')} />
          </Field>
          <Button type="submit" size="lg" disabled={change.isPending}>
            {change.isPending ? 'Changing password…' : 'Change Password'}
          </Button>
        </form>
      </Card>
      <OwnerEmailForm />
    </div>
  );
}
