import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { ownerEmailSchema, type OwnerEmailInput } from '../../../../shared/schemas/auth';
import { validate } from '../../../../shared/validation';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { FormAlert } from '../../components/ui/form-alert';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api, errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { isNetworkError, useFormFields } from '../../lib/use-form-errors';

const fieldOrder = ['email', 'currentPassword'] as const;

/**
 * The owner's email, where a password-reset link goes: shown, and added or changed with the current
 * password (whoever sets it could reset the password, so a borrowed session alone cannot).
 */
export function OwnerEmailForm() {
  const queryClient = useQueryClient();
  const onFile = useQuery<{ email: string | null }>({ queryKey: queryKeys.ownerEmail });
  const { values, setValues, bind, errors, show, clear } = useFormFields(fieldOrder, { email: '', currentPassword: '' });

  const save = useMutation({
    mutationFn: (input: OwnerEmailInput) => api('PUT /api/admin/email', { body: input }),
    onSuccess: ({ email, message }) => {
      queryClient.setQueryData(queryKeys.ownerEmail, { email });
      setValues({ email: '', currentPassword: '' });
      toast({ title: 'Email Saved', description: message });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) show(error.fields);
      const description = isNetworkError(error) ? 'Please try again.' : (errorMessage(error) ?? 'Please try again.');
      toast({ title: 'Email not saved', description, variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    const result = validate(ownerEmailSchema, values);
    if (!result.success) return show(result.fields);
    clear();
    save.mutate(result.data);
  };


  const current = onFile.data?.email;
  return (
    <Card className="mt-8">
      <h2 className="text-xl font-semibold text-white">Email for password resets</h2>
      <p className="mt-2 text-sm text-slate-200" data-testid="owner-email-on-file">
        {onFile.isPending
          ? 'Checking the email on file…'
          : onFile.isError
            ? 'We couldn’t load the email on file.'
            : current
              ? `Reset links go to ${current}.`
              : 'No email yet: add one, or a forgotten password cannot be reset.'}
      </p>
      <form noValidate onSubmit={onSubmit} className="mt-5 grid gap-5" aria-busy={save.isPending}>
        <FormAlert message={errors._} />
        <Field id="owner-email" label={current ? 'New email' : 'Email'} error={errors.email}>
          <input type="email" autoComplete="email" {...bind('email')} />
        </Field>
        <Field id="owner-email-password" label="Your password" hint="Your current password: needed to change where reset links go." error={errors.currentPassword}>
          <input type="password" autoComplete="current-password" {...bind('currentPassword')} />
        </Field>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save email'}
        </Button>
      </form>
    </Card>
  );
}
