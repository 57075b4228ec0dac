import { useMutation } from '@tanstack/react-query';
import { LockKeyhole } from 'lucide-react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { adminLoginSchema, type AdminLoginInput } from '../../../../shared/schemas/auth';
import { validate } from '../../../../shared/validation';
import { Field } from '../../components/ui/field';
import { PageHeader } from '../../components/layout/page-header';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { useAdminStatus } from '../../lib/admin-status';
import { ApiError, errorMessage } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { isNetworkError, useFormFields } from '../../lib/use-form-errors';
import { FormAlert } from '../../components/ui/form-alert';

const fieldOrder = ['username', 'password'] as const;

export default function LoginPage() {
  useDocumentTitle('Owner Access');
  const navigate = useNavigate();
  const auth = useAuth();
  const adminStatus = useAdminStatus();
  const { values, setValues, bind, errors, show, clear } = useFormFields(fieldOrder, { username: '', password: '' });

  const login = useMutation({
    mutationFn: (input: AdminLoginInput) => auth.login(input),
    onSuccess: () => {
      toast({ title: 'Login Successful', description: 'Welcome back.' });
      void navigate(paths.admin);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) show(error.fields);
      const description = isNetworkError(error)
        ? 'Network error. Check your connection and try again.'
        : error instanceof ApiError
          ? (errorMessage(error) ?? 'Invalid credentials')
          : 'Login failed';
      toast({ title: 'Login Failed', description, variant: 'destructive' });
      setValues((v) => ({ ...v, password: '' }));
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (login.isPending) return;
    const result = validate(adminLoginSchema, values);
    if (!result.success) return show(result.fields);
    clear();
    login.mutate(result.data);
  };


  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <PageHeader
        title="Owner Access"
        subtitle="Sign in to review applications and manage workers and jobs."
        icon={<LockKeyhole aria-hidden="true" className="size-12 text-amber-300" />}
      />
      <Card>
        {adminStatus.isAdmin ? (
          <p className="mb-5 rounded-lg bg-slate-800 p-3 text-sm text-slate-100">
            You are already signed in.{' '}
            <Link to={paths.admin} className="font-semibold text-amber-300 underline underline-offset-2 hover:text-amber-200">
              Go to the Owner Dashboard
            </Link>
          </p>
        ) : null}
        <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={login.isPending}>
          <FormAlert message={errors._} />
          <Field id="login-username" label="Username" error={errors.username}>
            <input type="text" autoComplete="username" autoCapitalize="none" spellCheck={false} {...bind('username')} />
          </Field>
          <Field id="login-password" label="Password" error={errors.password}>
            <input type="password" autoComplete="current-password" {...bind('password')} />
          </Field>
          <Button type="submit" size="lg" disabled={login.isPending}>
            {login.isPending ? 'Signing in…' : 'Sign In'}
          </Button>
          <Link to={paths.forgotPassword} className="justify-self-center text-sm font-semibold text-amber-300 underline underline-offset-2 hover:text-amber-200">
            Forgot password?
          </Link>
        </form>
        {!adminStatus.isSetup && !adminStatus.isAdmin ? (
          <p className="mt-5 text-center text-sm text-slate-300">
            No owner account yet?{' '}
            <Link to={paths.adminSetup} className="font-semibold text-amber-300 underline underline-offset-2 hover:text-amber-200">
              Set one up
            </Link>
          </p>
        ) : null}
      </Card>
    </div>
  );
}
