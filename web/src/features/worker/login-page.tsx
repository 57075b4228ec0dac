import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LogIn, UserPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { workerLoginSchema, type WorkerLoginInput } from '../../../../shared/schemas/auth';
import { validate } from '../../../../shared/validation';
import { Field } from '../../components/ui/field';
import { PageHeader } from '../../components/layout/page-header';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api, errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { saveWorkerSession, useWorkerSession } from './session';
import { useFormErrors } from '../../lib/use-form-errors';
import { syncWorkerType } from './worker-type-sync';
import { FormAlert } from '../../components/ui/form-alert';

const fieldOrder = ['email', 'password'] as const;


export default function WorkerLoginPage() {
  useDocumentTitle('Worker Login');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({ email: '', password: '' });
  const { errors, show, clear, refFor } = useFormErrors(fieldOrder);
  const signedIn = useWorkerSession().worker;
  const [noAccountHint, setNoAccountHint] = useState(false);

  const login = useMutation({
    mutationFn: async (input: WorkerLoginInput) => {
      const answer = await api('POST /api/workers/login', { body: input });
      return { ...answer, worker: await syncWorkerType(answer.worker, answer.token) };
    },
    onSuccess: ({ worker, token }) => {
      saveWorkerSession(worker, token);
      queryClient.setQueryData(queryKeys.workerMe, worker);
      if (worker.status === 'terminated') {
        toast({ title: 'Account Terminated', description: 'This account has been terminated.', variant: 'destructive' });
      } else if (worker.status === 'suspended') {
        toast({ title: 'Account Suspended', description: 'Your account shows why, your strikes and how to appeal them.', variant: 'destructive' });
      } else if (worker.status === 'pending_review') {
        // Let in to the review screen (the dashboard shows it until the owner decides).
        toast({ title: 'Account Under Review', description: 'Your application is still being reviewed: your account shows its status.' });
      } else if (worker.status === 'rejected') {
        toast({ title: 'Application Not Approved', description: 'Your account shows the owner’s notes.', variant: 'destructive' });
      } else {
        toast({ title: 'Welcome back', description: `Signed in as ${worker.fullName}.` });
      }
      void navigate(paths.workerDashboard);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) show(error.fields);
      // The server gives an email without an account the wrong password's answer (it never tells
      // which emails applied), so the page says what an applicant without an account should do.
      setNoAccountHint(error instanceof ApiError && error.status === 401);
      toast({ title: 'Login failed', description: errorMessage(error) ?? 'Please check your credentials', variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (login.isPending) return;
    const result = validate(workerLoginSchema, values);
    if (!result.success) return show(result.fields);
    clear();
    login.mutate(result.data);
  };

  const sending = login.isPending;
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <PageHeader title="Worker Login" subtitle="Sign in to manage your availability, time clock and jobs." />
      <Card>
        {signedIn && !login.isPending && !login.isSuccess ? (
          <p className="mb-5 rounded-lg bg-white/5 p-3 text-sm text-slate-200">
            You are signed in as <span className="font-semibold text-white">{signedIn.email}</span>.{' '}
            <Link to={paths.workerDashboard} className="font-semibold text-amber-300 underline-offset-4 hover:underline">
              Go to your dashboard
            </Link>
          </p>
        ) : null}
        <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={sending}>
          <FormAlert message={errors._} />
          <Field id="worker-login-email" label="Email" error={errors.email}>
            <input
              ref={refFor('email')}
              type="email"
              autoComplete="email"
              value={values.email}
              onChange={(e) => setValues((v) => ({ ...v, email: e.target.value }))}
            />
          </Field>
          <Field id="worker-login-password" label="Password" error={errors.password}>
            <input
              ref={refFor('password')}
              type="password"
              autoComplete="current-password"
              value={values.password}
              onChange={(e) => setValues((v) => ({ ...v, password: e.target.value }))}
            />
          </Field>
          <Button type="submit" size="lg" disabled={sending}>
            <LogIn aria-hidden="true" className="size-4" />
            {sending ? 'Signing in...' : 'Sign In'}
          </Button>
          <Link to={paths.forgotPassword} className="justify-self-center text-sm font-semibold text-amber-300 underline-offset-4 hover:underline">
            Forgot password?
          </Link>
          {noAccountHint ? (
            <p className="rounded-lg bg-white/5 p-3 text-sm text-slate-200" data-testid="no-account-hint">
              Applied but no account yet? Create your account first, with a link we email to the address you applied with:{' '}
              <Link to={paths.workerSignup} state={{ email: values.email }} className="font-semibold text-amber-300 underline-offset-4 hover:underline">
                create your account
              </Link>
              .
            </p>
          ) : null}
        </form>
        <div className="mt-6 grid gap-3 border-t border-white/10 pt-6 text-sm text-slate-200">
          <p>Applied but no account yet?</p>
          <Link to={paths.workerSignup} className={buttonClasses('outline', 'md')}>
            <UserPlus aria-hidden="true" className="size-4" /> Create Account
          </Link>
          <p className="mt-2">Not working with us yet?</p>
          <Link to={paths.workerApply} className={buttonClasses('secondary', 'md')}>
            Apply to be a Pro
          </Link>
        </div>
      </Card>
    </div>
  );
}
