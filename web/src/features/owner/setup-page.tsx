import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { adminSetupSchema, type AdminSetupInput } from '../../../../shared/schemas/auth';
import { validate } from '../../../../shared/validation';
import { Field } from '../../components/ui/field';
import { PageHeader } from '../../components/layout/page-header';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api, errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { useAuth } from '../../lib/auth';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { isNetworkError, useFormFields } from '../../lib/use-form-errors';
import { FormAlert } from '../../components/ui/form-alert';

const fieldOrder = ['setupCode', 'username', 'email', 'password', 'confirm'] as const;
/** The dashboard opens 1.5 s after a successful setup, so the confirmation can be read. */
const REDIRECT_DELAY_MS = 1500;

export default function SetupPage() {
  useDocumentTitle('Owner Setup');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const auth = useAuth();
  const status = useQuery<{ needsSetup: boolean }>({ queryKey: queryKeys.setupStatus, refetchOnMount: 'always' });
  const { values, bind, errors, show, clear } = useFormFields(fieldOrder, { setupCode: '', username: '', email: '', password: '', confirm: '' });
  const [done, setDone] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const setup = useMutation({
    mutationFn: (input: AdminSetupInput) => api('POST /api/admin/setup', { body: input }),
    onSuccess: ({ user }) => {
      setDone(true);
      auth.signedIn(user);
      queryClient.setQueryData(queryKeys.setupStatus, { needsSetup: false });
      toast({ title: 'Admin Account Created!', description: 'Opening the owner dashboard…' });
      timer.current = window.setTimeout(() => void navigate(paths.admin, { replace: true }), REDIRECT_DELAY_MS);
    },
    onError: (error) => {
      if (isNetworkError(error)) {
        toast({ title: 'Setup Failed', description: 'Network error occurred while creating admin account', variant: 'destructive' });
        return;
      }
      if (error instanceof ApiError && error.status === 400) show(error.fields);
      // A wrong setup code: the server's words (where to find the right one) under its field.
      if (error instanceof ApiError && error.status === 403) show({ setupCode: errorMessage(error) ?? 'That setup code is not right.' });
      toast({ title: 'Setup Failed', description: errorMessage(error) ?? 'Failed to create admin account', variant: 'destructive' });
      if (error instanceof ApiError && error.status === 409) void status.refetch();
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (setup.isPending || done) return;
    const result = validate(adminSetupSchema, values);
    if (!result.success) return show(result.fields);
    clear();
    setup.mutate(result.data);
  };


  // Setup happens once: afterwards this address leads to the login (unless this visit just did it).
  if (!done && status.data?.needsSetup === false) return <Navigate to={paths.adminLogin} replace />;

  const sending = setup.isPending || done;
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <PageHeader
        title="Owner Setup"
        subtitle="Create the one owner account that manages applications, workers and jobs."
        icon={<ShieldCheck aria-hidden="true" className="size-12 text-amber-300" />}
      />
      <Card>
        {status.isPending ? (
          <p role="status" className="text-center text-slate-200">
            Checking whether an owner account exists…
          </p>
        ) : (
          <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={sending}>
            {status.isError ? (
              <FormAlert message="We couldn’t check whether setup is still needed. You can still try; the server refuses a second owner." />
            ) : null}
            <FormAlert message={errors._} />
            <Field
              id="setup-code"
              label="Setup code"
              hint="The one-time code from whoever started this marketplace: printed by npm start on a laptop, or read with the command in the stack output SetupCodeCommand in AWS."
              error={errors.setupCode}
            >
              <input type="text" autoComplete="one-time-code" autoCapitalize="none" spellCheck={false} {...bind('setupCode')} />
            </Field>
            <Field id="setup-username" label="Username" hint="At least 3 characters: letters, digits and . _ @ -" error={errors.username}>
              <input type="text" autoComplete="username" autoCapitalize="none" spellCheck={false} {...bind('username')} />
            </Field>
            <Field
              id="setup-email"
              label="Email"
              hint="Where we send a link to choose a new password if you forget this one. You can change it later."
              error={errors.email}
            >
              <input type="email" autoComplete="email" {...bind('email')} />
            </Field>
            <Field id="setup-password" label="Password" hint="At least 8 characters." error={errors.password}>
              <input type="password" autoComplete="new-password" {...bind('password')} />
            </Field>
            <Field id="setup-confirm" label="Confirm password" error={errors.confirm}>
              <input type="password" autoComplete="new-password" {...bind('confirm')} />
            </Field>
            <Button type="submit" size="lg" disabled={sending}>
              {done ? 'Account created' : setup.isPending ? 'Creating account…' : 'Create Owner Account'}
            </Button>
          </form>
        )}
      </Card>
    </div>
  );
}
