import { useMutation, useQuery } from '@tanstack/react-query';
import { CheckCircle2, ClipboardCheck, FileCheck2, Home, LogIn, Send, Upload, UserPlus } from 'lucide-react';
import { useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { CategorySlug } from '../../../../shared/categories';
import { MISSING_ID_DOCUMENTS, type WorkerApplicationInput } from '../../../../shared/schemas/applications';
import type { PublicConfig } from '../../../../shared/schemas/config';
import { Field } from '../../components/ui/field';
import { PageHeader } from '../../components/layout/page-header';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api, errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { cn } from '../../lib/cn';
import { externalLinks, paths } from '../../lib/paths';
import { acceptAttribute, checkFile, UploadError, uploadFile } from '../../lib/upload';
import { useDocumentTitle } from '../../lib/use-document-title';
import {
  agreementFields,
  applicationFieldOrder,
  documentFields,
  initialApplicationValues,
  serviceOptions,
  validateApplication,
  type AgreementField,
  type ApplicationField,
  type ApplicationValues,
  type DocumentField,
} from './application-form';
import { FormAlert } from '../../components/ui/form-alert';

interface ApplicationAnswer {
  id: string;
  status: 'pending';
  message?: string;
}

interface DocumentState {
  file: File | null;
  /** The upload key once this very file reached storage. */
  key: string | null;
  progress: number | null;
}

const emptyDocument: DocumentState = { file: null, key: null, progress: null };

const documentLabels: Record<DocumentField, { label: string; hint: string }> = {
  photoIdFrontUrl: { label: 'Photo ID (front)', hint: "Driver's license, state ID or passport. JPG or PNG, at most 10 MB." },
  photoIdBackUrl: { label: 'Photo ID (back)', hint: 'The back of the same ID. JPG or PNG, at most 10 MB.' },
  selfieUrl: { label: 'Selfie', hint: 'A clear photo of your face, so we can match it to your ID. JPG or PNG, at most 10 MB.' },
};

/** A placeholder key in the right shape: lets the form check everything before any upload starts. */
const PENDING_KEY = 'uploads/worker-documents/AAAAAAAAAAAAAAAAAAAAAA.png';

type Focusable = HTMLInputElement | HTMLTextAreaElement | null;

export default function WorkerApplicationPage() {
  useDocumentTitle('Worker Application');
  const [submitted, setSubmitted] = useState<{ answer: ApplicationAnswer; email: string } | null>(null);
  if (submitted) return <ApplicationSubmitted answer={submitted.answer} email={submitted.email} />;
  return <ApplicationForm onSubmitted={(answer, email) => setSubmitted({ answer, email })} />;
}

function ApplicationForm({ onSubmitted }: { onSubmitted: (answer: ApplicationAnswer, email: string) => void }) {
  const config = useQuery<PublicConfig>({ queryKey: queryKeys.config });
  const [values, setValues] = useState<ApplicationValues>(initialApplicationValues);
  const [documents, setDocuments] = useState<Record<DocumentField, DocumentState>>({
    photoIdFrontUrl: emptyDocument,
    photoIdBackUrl: emptyDocument,
    selfieUrl: emptyDocument,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formProblem, setFormProblem] = useState<string | null>(null);
  const refs = useRef<Partial<Record<ApplicationField, Focusable>>>({});
  const refFor = (field: ApplicationField) => (el: Focusable) => {
    refs.current[field] = el;
  };

  const showErrors = (next: Record<string, string>) => {
    setErrors(next);
    const first = applicationFieldOrder.find((field) => next[field]);
    if (first) refs.current[first]?.focus();
  };

  const setDocument = (field: DocumentField, patch: Partial<DocumentState>) =>
    setDocuments((d) => ({ ...d, [field]: { ...d[field], ...patch } }));

  /** Uploads every chosen file that is not in storage yet, in parallel, each with its own progress. */
  const uploadAll = async (): Promise<Record<DocumentField, string>> => {
    const entries = await Promise.all(
      documentFields.map(async (field) => {
        const doc = documents[field];
        if (doc.key) return [field, doc.key] as const;
        if (!doc.file) throw new UploadError(MISSING_ID_DOCUMENTS);
        try {
          const { key } = await uploadFile(doc.file, 'worker-documents', (progress) => setDocument(field, { progress }));
          setDocument(field, { key, progress: 100 });
          return [field, key] as const;
        } catch (error) {
          setDocument(field, { progress: null });
          setErrors((e) => ({ ...e, [field]: error instanceof Error ? error.message : 'File upload failed' }));
          throw error;
        }
      }),
    );
    return Object.fromEntries(entries) as Record<DocumentField, string>;
  };

  const submit = useMutation({
    mutationFn: async (input: Omit<WorkerApplicationInput, DocumentField>) => {
      const keys = await uploadAll();
      try {
        return await api('POST /api/worker-applications', { body: { ...input, ...keys } });
      } catch (error) {
        throw new SubmitError(error);
      }
    },
    onSuccess: (answer, input) => {
      toast({ title: 'Application Submitted', description: "We'll review your application and contact you within 2-3 business days." });
      onSubmitted(answer, input.emailAddress);
    },
    onError: (error) => {
      if (!(error instanceof SubmitError)) {
        // An upload failed: the message is already under its field.
        toast({ title: 'File upload failed', description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
        return;
      }
      const cause = error.cause;
      if (cause instanceof ApiError && cause.status === 400) {
        showErrors(cause.fields);
      }
      if (cause instanceof ApiError && cause.status === 409) {
        const message = errorMessage(cause) ?? 'An application with this email already exists.';
        setFormProblem(message);
        toast({ title: 'Submission Failed', description: message, variant: 'destructive' });
        return;
      }
      toast({
        title: 'Submission Failed',
        description: 'There was an error submitting your application. Please try again.',
        variant: 'destructive',
      });
    },
  });

  const onFile = (field: DocumentField) => (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    setErrors(({ [field]: _old, ...rest }) => rest);
    if (!file) return setDocument(field, emptyDocument);
    try {
      checkFile(file, 'worker-documents');
      setDocument(field, { file, key: null, progress: null });
    } catch (error) {
      event.target.value = '';
      setDocument(field, emptyDocument);
      setErrors((e) => ({ ...e, [field]: error instanceof Error ? error.message : 'Only JPG and PNG files are accepted' }));
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submit.isPending) return;
    setFormProblem(null);
    const pendingKeys = Object.fromEntries(
      documentFields.filter((field) => documents[field].file).map((field) => [field, documents[field].key ?? PENDING_KEY]),
    );
    const result = validateApplication(values, pendingKeys);
    if (!result.ok) {
      showErrors(result.errors);
      if (documentFields.some((field) => result.errors[field])) {
        toast({
          title: 'Missing Documents',
          description: 'Please upload all required documents: Photo ID (front and back) and selfie.',
          variant: 'destructive',
        });
      }
      return;
    }
    setErrors({});
    const { photoIdFrontUrl: _f, photoIdBackUrl: _b, selfieUrl: _s, ...input } = result.input;
    submit.mutate(input);
  };

  const bind = (field: 'fullName' | 'phoneNumber' | 'emailAddress' | 'homeAddress' | 'yearsExperience' | 'hourlyRate' | 'ssnLastFour' | 'workingHours') => ({
    ref: refFor(field),
    value: values[field],
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((v) => ({ ...v, [field]: value }));
    },
  });

  const toggleService = (slug: CategorySlug) =>
    setValues((v) => ({
      ...v,
      servicesProvided: v.servicesProvided.includes(slug) ? v.servicesProvided.filter((s) => s !== slug) : [...v.servicesProvided, slug],
    }));

  const sending = submit.isPending;
  const uploading = documentFields.some((field) => documents[field].progress !== null && documents[field].progress! < 100);
  const missingDocuments = documentFields.some((field) => errors[field] === MISSING_ID_DOCUMENTS);

  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <PageHeader
        title="Apply to be a Pro"
        subtitle="Join our network of trusted home-service professionals. It takes about ten minutes; have your photo ID ready."
      />
      <form noValidate onSubmit={onSubmit} className="grid gap-6" aria-busy={sending}>
        <FormAlert message={formProblem ?? errors._} />

        <Section title="About you">
          <Field id="apply-full-name" label="Full name" error={errors.fullName}>
            <input type="text" autoComplete="name" {...bind('fullName')} />
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field id="apply-phone" label="Phone number" hint="At least 10 digits." error={errors.phoneNumber}>
              <input type="tel" autoComplete="tel" inputMode="tel" {...bind('phoneNumber')} />
            </Field>
            <Field id="apply-email" label="Email address" hint="Use it later to create your worker account." error={errors.emailAddress}>
              <input type="email" autoComplete="email" {...bind('emailAddress')} />
            </Field>
          </div>
          <Field id="apply-address" label="Home address" hint="Street, city, state and ZIP code: we match you with nearby jobs." error={errors.homeAddress}>
            <input type="text" autoComplete="street-address" {...bind('homeAddress')} />
          </Field>
        </Section>

        <Section title="Your work">
          <div className="grid gap-5 sm:grid-cols-2">
            <Field id="apply-years" label="Years of experience" hint="0 to 50." error={errors.yearsExperience}>
              <input type="number" inputMode="numeric" min={0} max={50} step={1} {...bind('yearsExperience')} />
            </Field>
            <Field id="apply-rate" label="Hourly rate (USD)" hint="$15.00 to $200.00, in steps of $0.50." error={errors.hourlyRate}>
              <input type="number" inputMode="decimal" min={15} max={200} step={0.5} {...bind('hourlyRate')} />
            </Field>
          </div>
          <fieldset aria-describedby={errors.servicesProvided ? 'apply-services-error' : undefined}>
            <legend className="mb-1.5 text-sm font-semibold text-slate-100">Services you provide</legend>
            <div className="grid gap-2 sm:grid-cols-3">
              {serviceOptions.map((service, index) => (
                <label key={service.slug} className="flex cursor-pointer items-center gap-3 rounded-lg border border-white/15 px-3 py-2.5 hover:bg-white/5">
                  <input
                    ref={index === 0 ? refFor('servicesProvided') : undefined}
                    type="checkbox"
                    className="size-4 accent-amber-400"
                    checked={values.servicesProvided.includes(service.slug)}
                    onChange={() => toggleService(service.slug)}
                    aria-invalid={errors.servicesProvided ? true : undefined}
                  />
                  {service.name}
                </label>
              ))}
            </div>
            {errors.servicesProvided ? (
              <p id="apply-services-error" className="mt-1 text-sm font-medium text-red-300">
                {errors.servicesProvided}
              </p>
            ) : null}
          </fieldset>
          <Field id="apply-hours" label="Working hours" hint="When you can take jobs, e.g. “Weekdays 8am-6pm, Saturday mornings”." error={errors.workingHours}>
            <input type="text" {...bind('workingHours')} />
          </Field>
          <CheckRow
            id="apply-same-day"
            inputRef={refFor('availableSameDay')}
            checked={values.availableSameDay}
            onChange={(checked) => setValues((v) => ({ ...v, availableSameDay: checked }))}
            label="I can take same-day jobs"
            error={errors.availableSameDay}
          />
        </Section>

        <Section title="Identity verification">
          <p className="text-sm text-slate-300">
            Your documents go straight to encrypted storage and are only seen by the team reviewing your application.
          </p>
          <Field id="apply-ssn" label="Last 4 digits of SSN" hint="Used for the background check only." error={errors.ssnLastFour}>
            <input type="text" inputMode="numeric" autoComplete="off" maxLength={4} className="max-w-32 font-mono" {...bind('ssnLastFour')} />
          </Field>
          {missingDocuments ? <FormAlert message={MISSING_ID_DOCUMENTS} /> : null}
          <div className="grid gap-5 md:grid-cols-3">
            {documentFields.map((field) => (
              <DocumentInput
                key={field}
                id={`apply-${field}`}
                inputRef={refFor(field)}
                label={documentLabels[field].label}
                hint={documentLabels[field].hint}
                state={documents[field]}
                error={errors[field] === MISSING_ID_DOCUMENTS ? (documents[field].file ? undefined : 'Required') : errors[field]}
                disabled={sending}
                onChange={onFile(field)}
              />
            ))}
          </div>
        </Section>

        <Section title="Agreements">
          <LegalAgreement config={config.data} configFailed={config.isError} onRetry={() => void config.refetch()} />
          <div className="grid gap-3">
            {agreementFields.map((field) => (
              <CheckRow
                key={field}
                id={`apply-${field}`}
                inputRef={refFor(field)}
                checked={values[field]}
                onChange={(checked) => setValues((v) => ({ ...v, [field]: checked }))}
                label={agreementLabels[field]}
                error={errors[field]}
              />
            ))}
          </div>
        </Section>

        <Button type="submit" size="lg" disabled={sending}>
          <Send aria-hidden="true" className="size-4" />
          {sending ? (uploading ? 'Uploading documents...' : 'Submitting application...') : 'Submit Application'}
        </Button>
        <p className="text-center text-sm text-slate-300">
          Already hired?{' '}
          <Link to={paths.workerLogin} className="font-semibold text-amber-300 underline-offset-4 hover:underline">
            Worker Login
          </Link>
        </p>
      </form>
    </div>
  );
}

/** Wraps an error from the application call, to tell it apart from an upload failure. */
class SubmitError extends Error {
  constructor(override readonly cause: unknown) {
    super(errorMessage(cause) ?? 'Application submission failed');
  }
}

const agreementLabels: Record<AgreementField, string> = {
  workerAgreement: 'I agree to work as an independent worker under the terms above.',
  workQualityAgreement: 'I will deliver professional, quality work and stand behind it.',
  timelinessAgreement: 'I will arrive on time and keep customers informed of any delay.',
  liabilityAgreement: 'I accept full responsibility and liability for my work, as described above.',
  legalDisclaimerAccepted: 'I have read and accept the legal agreement, including the background verification and payment terms.',
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <h2 className="mb-5 text-xl font-semibold text-white">{title}</h2>
      <div className="grid gap-5">{children}</div>
    </Card>
  );
}

function CheckRow({
  id,
  label,
  checked,
  onChange,
  error,
  inputRef,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
  inputRef: (el: HTMLInputElement | null) => void;
}) {
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="flex cursor-pointer items-start gap-3 text-sm text-slate-100">
        <input
          ref={inputRef}
          id={id}
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 accent-amber-400"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <span>{label}</span>
      </label>
      {error ? (
        <p id={errorId} className="ml-7 mt-1 text-sm font-medium text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function DocumentInput({
  id,
  label,
  hint,
  state,
  error,
  disabled,
  onChange,
  inputRef,
}: {
  id: string;
  label: string;
  hint: string;
  state: DocumentState;
  error?: string;
  disabled: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  inputRef: (el: HTMLInputElement | null) => void;
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={cn('rounded-xl border p-4', error ? 'border-red-400' : 'border-white/15')}>
      <label htmlFor={id} className="flex items-center gap-2 text-sm font-semibold text-slate-100">
        {state.key ? <FileCheck2 aria-hidden="true" className="size-4 text-green-400" /> : <Upload aria-hidden="true" className="size-4 text-amber-300" />}
        {label}
      </label>
      <p id={hintId} className="mt-1 text-xs text-slate-300">
        {hint}
      </p>
      <input
        ref={inputRef}
        id={id}
        type="file"
        accept={acceptAttribute('worker-documents')}
        disabled={disabled}
        onChange={onChange}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(' ')}
        className="mt-3 block w-full text-sm text-slate-200 file:mr-3 file:rounded-md file:border-0 file:bg-white file:px-3 file:py-1.5 file:font-semibold file:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300"
      />
      {state.progress !== null ? (
        <div className="mt-3">
          <div
            role="progressbar"
            aria-label={`${label} upload`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={state.progress}
            className="h-2 overflow-hidden rounded-full bg-slate-700"
          >
            <div className={cn('h-full transition-[width]', state.key ? 'bg-green-500' : 'bg-amber-400')} style={{ width: `${state.progress}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-300">{state.key ? 'Uploaded' : `Uploading: ${state.progress}%`}</p>
        </div>
      ) : state.file ? (
        <p className="mt-2 truncate text-xs text-slate-300">Ready: {state.file.name}</p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-2 text-sm font-medium text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function LegalAgreement({ config, configFailed, onRetry }: { config?: PublicConfig; configFailed: boolean; onRetry: () => void }) {
  const fee = config ? `${config.platformFeePercent}%` : null;
  const share = config ? `${config.workerSharePercent}%` : null;
  return (
    <div
      tabIndex={0}
      role="region"
      aria-label="Legal agreement"
      className="max-h-72 overflow-y-auto rounded-lg border border-white/15 bg-slate-950/60 p-4 text-sm leading-relaxed text-slate-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300"
    >
      <h3 className="font-semibold text-white">Independent Worker Agreement</h3>
      <ol className="mt-3 grid list-decimal gap-3 pl-5">
        <li>
          <strong className="text-white">Independent-worker status.</strong> You join as an independent worker, not an employee, agent
          or partner of the platform. You decide whether to accept each job offer and you provide your own tools, transport and
          insurance.
        </li>
        <li>
          <strong className="text-white">Full responsibility.</strong> You are fully responsible for the quality, safety and legality of
          the work you perform, including any licences or permits your trade requires where you work.
        </li>
        <li>
          <strong className="text-white">Liability.</strong> You are liable for damage, injury or loss caused by your work or conduct
          on a customer’s property, and you release the platform from claims arising from your services to the extent the law
          allows.
        </li>
        <li>
          <strong className="text-white">Platform policies.</strong> You follow the platform’s policies, including arriving within the
          arrival window of every job you accept. Late arrival loses the job and counts as a strike; two strikes end your account.
        </li>
        <li>
          <strong className="text-white">Background verification.</strong> You authorise us to verify your identity with the photo ID
          and selfie you upload and to run a background check using the details you provide, including the last four digits of
          your SSN.
        </li>
        <li>
          <strong className="text-white">Payment terms.</strong>{' '}
          {fee && share ? (
            <>
              Customers pay through the platform. The platform keeps a {fee} fee on each completed job and you receive {share}
            </>
          ) : configFailed ? (
            <>
              Customers pay through the platform, which keeps a platform fee on each completed job; you receive the rest (
              <button type="button" onClick={onRetry} className="font-semibold text-amber-300 underline underline-offset-2">
                load the current fee
              </button>
              )
            </>
          ) : (
            <>Customers pay through the platform, which keeps a platform fee on each completed job (loading the current rate...)</>
          )}
          , paid out through our payment provider,{' '}
          <a href={externalLinks.stripe} target="_blank" rel="noreferrer" className="font-semibold text-amber-300 underline underline-offset-2">
            Stripe
          </a>
          , to the payout account you set up once you are approved.
        </li>
      </ol>
    </div>
  );
}

function ApplicationSubmitted({ answer, email }: { answer: ApplicationAnswer; email: string }) {
  useDocumentTitle('Application Under Review');
  const steps = [
    'Background verification and document review',
    'Skills assessment',
    'Payment account setup',
    'Activation, with training on how the platform works',
  ];
  return (
    <div className="mx-auto max-w-2xl px-4 py-16">
      <Card>
        <div role="status">
          <PageHeader
            icon={<CheckCircle2 aria-hidden="true" className="size-14 text-green-400" />}
            title="Application Under Review"
            subtitle={answer.message ?? 'Thank you for applying. Your application has been received.'}
          />
        </div>
        <h2 className="flex items-center gap-2 text-lg font-semibold text-white">
          <ClipboardCheck aria-hidden="true" className="size-5 text-amber-300" /> Next steps
        </h2>
        <ol className="mt-3 grid list-decimal gap-2 pl-6 text-slate-200">
          {steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <p className="mt-6 rounded-lg bg-white/5 p-4 text-slate-200">
          We have emailed a confirmation to <strong className="text-white">{email}</strong>, with a link to create your worker
          account (it works once, for 7 days), and we review applications within <strong className="text-white">2-3 business days</strong>.
          Your account shows your application’s status, and becomes your dashboard the moment you are approved.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to={paths.home} className={buttonClasses('outline', 'md')}>
            <Home aria-hidden="true" className="size-4" /> Back to Home
          </Link>
          <Link to={paths.workerLogin} className={buttonClasses('outline', 'md')}>
            <LogIn aria-hidden="true" className="size-4" /> Worker Login
          </Link>
          {/* The email rides in the page's state, not its address, so it stays out of history and logs. */}
          <Link to={paths.workerSignup} state={{ email }} className={buttonClasses('primary', 'md')}>
            <UserPlus aria-hidden="true" className="size-4" /> Send the Link Again
          </Link>
        </div>
      </Card>
    </div>
  );
}
