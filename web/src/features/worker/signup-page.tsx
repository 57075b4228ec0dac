import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Info, Mail, TriangleAlert, UserPlus } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { workerAccountLinkRequestSchema, workerCreateAccountSchema } from '../../../../shared/schemas/auth';
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
import { isNetworkError, useFormFields } from '../../lib/use-form-errors';
import { syncWorkerType } from './worker-type-sync';
import { FormAlert } from '../../components/ui/form-alert';
import { tokenFromHash, withoutFragment } from '../../lib/link-fragment';

/** After 'Account Created!' the dashboard opens, 2 s later so the message can be read. */
export const SIGNUP_REDIRECT_MS = 2000;
const INCOMPLETE = 'This link is incomplete. Open it again from the mail exactly as it was sent, or send a new link.';
const UNREACHABLE = 'We could not reach the server. Please try again.';

/** The server's sentence for a link that sets no password (used, expired, unknown, no application), if that is what the error is. */
function deadLinkMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 410 || error.status === 403) return errorMessage(error) ?? INCOMPLETE;
  if (error.status === 400 && error.fields.token) return error.fields.token;
  return undefined;
}

/**
 * A pro's account is made with a single-use link mailed to the address their application gave:
 * the mailbox, not a typed email, says whose account it is. Opened from the mail (`#token=`), the
 * page reads the secret once, takes it out of the address bar, says which address the account is
 * for (and when an account already uses it, that this replaces its password and signs every device
 * out), and sets the password. Opened without a link, it mails one to the address typed.
 */
export default function WorkerSignupPage() {
  useDocumentTitle('Create Worker Account');
  const [token, setToken] = useState(() => (typeof window === 'undefined' ? undefined : tokenFromHash(window.location.hash)));
  const [asking, setAsking] = useState(!token);

  useEffect(() => {
    // A link pasted into a tab already on this page changes only the fragment: no new page load.
    const take = () => {
      const fromHash = tokenFromHash(window.location.hash);
      if (fromHash) {
        setToken(fromHash);
        setAsking(false);
      }
      if (window.location.hash) window.history.replaceState(window.history.state, '', withoutFragment(window.location));
    };
    take();
    window.addEventListener('hashchange', take);
    return () => window.removeEventListener('hashchange', take);
  }, []);

  return (
    <div className="mx-auto max-w-md px-4 py-12">
      {asking || !token ? <AskForLink /> : <SetPassword key={token} token={token} onSendNewLink={() => setAsking(true)} />}
    </div>
  );
}

function LoginAndApplyLinks() {
  return (
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
  );
}

/** Without a link: the address the application gave, to mail one to. The answer is the server's own, the same for any address. */
function AskForLink() {
  // The application's success screen and the login hint pass the email (page state, never the URL).
  const fromApplication = (useLocation().state as { email?: unknown } | null)?.email;
  const { values, bind, errors, show, clear } = useFormFields(['email'] as const, {
    email: typeof fromApplication === 'string' ? fromApplication : '',
  });

  const request = useMutation({
    mutationFn: (input: { email: string }) => api('POST /api/workers/account-link', { body: input }),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) return show(error.fields);
      show({ _: isNetworkError(error) ? UNREACHABLE : (errorMessage(error) ?? 'Please try again.') });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (request.isPending) return;
    const result = validate(workerAccountLinkRequestSchema, values);
    if (!result.success) return show(result.fields);
    clear();
    request.mutate(result.data);
  };

  return (
    <>
      <PageHeader title="Create Worker Account" subtitle="For pros who have applied: under review or approved." />
      <Card>
        {request.isSuccess ? (
          <div className="grid gap-5">
            <FormAlert tone="success" title="Check your mail" message={request.data.message} />
            <p className="text-sm text-slate-200">
              Open the link in the mail to choose your password. Nothing arrived? Look in your spam folder, check the address, or ask
              again in a few minutes.
            </p>
            <Button variant="outline" onClick={() => request.reset()}>
              Use another address
            </Button>
          </div>
        ) : (
          <>
            <div className="mb-6 flex gap-3 rounded-lg border border-amber-300/40 bg-amber-300/10 p-4 text-sm text-amber-50">
              <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-300" />
              <p>
                Your account is made with a link we email to the address on your application, so only you can make it. We sent one
                when you applied and another when you were approved; enter that address to get a new one.
              </p>
            </div>
            <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={request.isPending}>
              <FormAlert message={errors._} />
              <Field id="worker-signup-email" label="Email" hint="The email you applied with." error={errors.email}>
                <input type="email" autoComplete="email" {...bind('email')} />
              </Field>
              <Button type="submit" size="lg" disabled={request.isPending}>
                <Mail aria-hidden="true" className="size-4" />
                {request.isPending ? 'Sending…' : 'Email Me a Link'}
              </Button>
            </form>
          </>
        )}
        <LoginAndApplyLinks />
      </Card>
    </>
  );
}

const fieldOrder = ['password', 'confirmPassword'] as const;

/** From a mailed link: whose account it is, then the password. */
function SetPassword({ token, onSendNewLink }: { token: string; onSendNewLink: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { values, bind, errors, show, clear } = useFormFields(fieldOrder, { password: '', confirmPassword: '' });
  /** The server's word that this link sets no password any more. */
  const [dead, setDead] = useState<string | undefined>();

  const link = useQuery({
    queryKey: ['worker-account-link', token],
    queryFn: () => api('POST /api/workers/account-link/check', { body: { token } }),
    retry: (failures, error) => deadLinkMessage(error) === undefined && failures < 2,
    staleTime: Infinity,
  });

  const create = useMutation({
    mutationFn: async (input: { token: string; password: string; confirmPassword: string }) => {
      const answer = await api('POST /api/workers/create-account', { body: input });
      return { ...answer, worker: await syncWorkerType(answer.worker, answer.token) };
    },
    onSuccess: ({ worker, token: session }) => {
      saveWorkerSession(worker, session);
      queryClient.setQueryData(queryKeys.workerMe, worker);
      toast({
        title: link.data?.accountExists ? 'Password Replaced' : 'Account Created!',
        description: worker.status === 'pending_review' ? 'Taking you to your application’s status...' : 'Taking you to your dashboard...',
      });
    },
    onError: (error) => {
      const gone = deadLinkMessage(error);
      if (gone) return setDead(gone);
      if (error instanceof ApiError && error.status === 400) return show(error.fields);
      show({ _: isNetworkError(error) ? UNREACHABLE : (errorMessage(error) ?? 'Failed to create account') });
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
    const result = validate(workerCreateAccountSchema, { token, ...values });
    if (!result.success) return show(result.fields);
    clear();
    create.mutate(result.data);
  };

  if (created) {
    const underReview = create.data.worker.status === 'pending_review';
    const replaced = link.data?.accountExists === true;
    return (
      <Card className="text-center">
        <div role="status">
          <PageHeader
            icon={<CheckCircle2 aria-hidden="true" className="size-14 text-green-400" />}
            title={replaced ? 'Password Replaced' : 'Account Created!'}
            subtitle={[
              replaced ? 'The account is yours again: every other device was signed out.' : 'Your worker account is ready.',
              underReview
                ? 'Your application is still under review: your account shows its status, and opens the dashboard the moment you are approved.'
                : 'Taking you to your dashboard...',
            ].join(' ')}
          />
        </div>
        <Link to={paths.workerDashboard} className={buttonClasses('primary', 'md')}>
          {underReview ? 'See Application Status' : 'Go to Dashboard'}
        </Link>
      </Card>
    );
  }

  const refused = dead ?? (link.isError ? (deadLinkMessage(link.error) ?? (isNetworkError(link.error) ? UNREACHABLE : errorMessage(link.error))) : undefined);
  const accountExists = link.data?.accountExists === true;

  return (
    <>
      <PageHeader title="Create Worker Account" subtitle="Choose the password you will log in with." />
      <Card>
        {refused ? (
          <div className="grid gap-5">
            <FormAlert message={refused} />
            <Button variant="outline" onClick={onSendNewLink}>
              <Mail aria-hidden="true" className="size-4" /> Send a new link
            </Button>
          </div>
        ) : !link.data ? (
          <p role="status" className="text-sm text-slate-200">
            Checking your link…
          </p>
        ) : (
          <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={create.isPending}>
            <p className="text-sm text-slate-200">
              The account for <strong className="text-white">{link.data.email}</strong>, the email on your application.
            </p>
            {accountExists ? (
              <div role="note" className="flex gap-3 rounded-lg border border-amber-300/40 bg-amber-300/10 p-4 text-sm text-amber-50">
                <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-300" />
                <p>
                  An account already exists for this email. If you did not make it, someone else did: setting a password here replaces
                  the old one and signs every device out.
                </p>
              </div>
            ) : null}
            <FormAlert message={errors._} />
            <Field id="worker-signup-password" label="Password" hint="At least 8 characters, and not a common one." error={errors.password}>
              <input type="password" autoComplete="new-password" {...bind('password')} />
            </Field>
            <Field id="worker-signup-confirm" label="Confirm password" error={errors.confirmPassword}>
              <input type="password" autoComplete="new-password" {...bind('confirmPassword')} />
            </Field>
            <Button type="submit" size="lg" disabled={create.isPending}>
              <UserPlus aria-hidden="true" className="size-4" />
              {create.isPending ? 'Saving…' : accountExists ? 'Replace Password' : 'Create Account'}
            </Button>
          </form>
        )}
        <LoginAndApplyLinks />
      </Card>
    </>
  );
}
