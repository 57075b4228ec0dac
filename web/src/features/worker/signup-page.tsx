import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Info, UserPlus } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { workerCreateAccountSchema, type WorkerCreateAccountInput } from '../../../../shared/schemas/auth';
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
import { saveWorkerSession } from './session';
import { useFormFields } from '../../lib/use-form-errors';
import { syncWorkerType } from './worker-type-sync';
import { FormAlert } from '../../components/ui/form-alert';

/** After 'Account Created!' the dashboard opens, 2 s later so the message can be read. */
export const SIGNUP_REDIRECT_MS = 2000;
const fieldOrder = ['email', 'password', 'confirmPassword'] as const;


export default function WorkerSignupPage() {
  useDocumentTitle('Create Worker Account');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The application's success screen passes the email it was filed with (page state, never the URL).
  const fromApplication = (useLocation().state as { email?: unknown } | null)?.email;
  const { values, bind, errors, show, clear } = useFormFields(fieldOrder, {
    email: typeof fromApplication === 'string' ? fromApplication : '',
    password: '',
    confirmPassword: '',
  });
  const [refusal, setRefusal] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: async (input: WorkerCreateAccountInput) => {
      const answer = await api('POST /api/workers/create-account', { body: input });
      return { ...answer, worker: await syncWorkerType(answer.worker, answer.token) };
    },
    onSuccess: ({ worker, token }) => {
      saveWorkerSession(worker, token);
      queryClient.setQueryData(queryKeys.workerMe, worker);
      toast({
        title: 'Account Created!',
        description: worker.status === 'pending_review' ? 'Taking you to your application’s status...' : 'Taking you to your dashboard...',
      });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) show(error.fields);
      const message = errorMessage(error) ?? 'Failed to create account';
      setRefusal(error instanceof ApiError && error.status === 403 ? message : null);
      toast({ title: 'Account creation failed', description: message, variant: 'destructive' });
    },
  });

  const created = create.isSuccess;
  useEffect(() => {
    if (!created) return;
    const timer = setTimeout(() => void navigate(paths.workerDashboard, { replace: true }), SIGNUP_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [created, navigate]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    setRefusal(null);
    const result = validate(workerCreateAccountSchema, values);
    if (!result.success) return show(result.fields);
    clear();
    create.mutate(result.data);
  };

  if (created) {
    const underReview = create.data.worker.status === 'pending_review';
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        <Card className="text-center">
          <div role="status">
            <PageHeader
              icon={<CheckCircle2 aria-hidden="true" className="size-14 text-green-400" />}
              title="Account Created!"
              subtitle={
                underReview
                  ? 'Your worker account is ready. Your application is still under review: your account shows its status, and opens the dashboard the moment you are approved.'
                  : 'Your worker account is ready. Taking you to your dashboard...'
              }
            />
          </div>
          <Link to={paths.workerDashboard} className={buttonClasses('primary', 'md')}>
            {underReview ? 'See Application Status' : 'Go to Dashboard'}
          </Link>
        </Card>
      </div>
    );
  }

  const sending = create.isPending;

  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <PageHeader title="Create Worker Account" subtitle="For pros who have applied: under review or approved." />
      <Card>
        <div className="mb-6 flex gap-3 rounded-lg border border-amber-300/40 bg-amber-300/10 p-4 text-sm text-amber-50">
          <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-300" />
          <p>
            Use the same email address as on your application. You can create your account as soon as you have applied: until the
            owner approves you, it shows your application’s status.
          </p>
        </div>
        <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={sending}>
          <FormAlert message={refusal ?? errors._} />
          <Field id="worker-signup-email" label="Email" hint="The email you applied with." error={errors.email}>
            <input type="email" autoComplete="email" {...bind('email')} />
          </Field>
          <Field id="worker-signup-password" label="Password" hint="At least 8 characters." error={errors.password}>
            <input type="password" autoComplete="new-password" {...bind('password')} />
          </Field>
          <Field id="worker-signup-confirm" label="Confirm password" error={errors.confirmPassword}>
            <input type="password" autoComplete="new-password" {...bind('confirmPassword')} />
          </Field>
          <Button type="submit" size="lg" disabled={sending}>
            <UserPlus aria-hidden="true" className="size-4" />
            {sending ? 'Creating account...' : 'Create Account'}
          </Button>
        </form>
        <p className="mt-6 border-t border-white/10 pt-6 text-sm text-slate-200">
          Already have an account?{' '}
          <Link to={paths.workerLogin} className="font-semibold text-amber-300 underline-offset-4 hover:underline">
            Log in
          </Link>
          . Not applied yet?{' '}
          <Link to={paths.workerApply} className="font-semibold text-amber-300 underline-offset-4 hover:underline">
            Apply to be a Pro
          </Link>
          .
        </p>
      </Card>
    </div>
  );
}
