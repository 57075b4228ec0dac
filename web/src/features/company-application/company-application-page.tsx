import { useMutation } from '@tanstack/react-query';
import { Building2, CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  businessTypes,
  companyWorkerTypes,
  projectDurations,
  typicalWorkerCounts,
  type CompanyApplicationInput,
} from '../../../../shared/schemas/applications';
import { Field } from '../../components/ui/field';
import { PageHeader } from '../../components/layout/page-header';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { acceptAttribute, uploadFile, UploadError } from '../../lib/upload';
import { useDocumentTitle } from '../../lib/use-document-title';
import {
  emptyCompanyForm,
  firstInvalidField,
  foldItemErrors,
  validateCompanyApplication,
  type CompanyField,
  type CompanyFormValues,
} from './company-form';
import { FileUploadField, type UploadState } from './file-upload-field';
import { FormAlert } from '../../components/ui/form-alert';

type DocumentField = 'businessLicenseUrl' | 'insuranceCertificateUrl';
type TextField = Exclude<keyof CompanyFormValues, 'workerTypesNeeded' | 'agreementAccepted'>;

const ACCEPT = acceptAttribute('company-documents');
const DOCUMENT_HINT = 'Optional. PDF, JPG or PNG, up to 10 MB.';
const SUBMIT_FAILED = 'There was an error submitting your application. Please try again.';

export default function CompanyApplicationPage() {
  useDocumentTitle('Company Application');
  const [values, setValues] = useState<CompanyFormValues>(emptyCompanyForm);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [uploads, setUploads] = useState<Record<DocumentField, UploadState>>({
    businessLicenseUrl: { status: 'idle' },
    insuranceCertificateUrl: { status: 'idle' },
  });
  const [submitted, setSubmitted] = useState<{ id: string; companyName: string; emailAddress: string }>();
  const refs = useRef<Partial<Record<CompanyField, HTMLElement | null>>>({});
  const aborts = useRef<Partial<Record<DocumentField, AbortController>>>({});

  // Uploads still running when the person leaves are cancelled.
  useEffect(() => () => Object.values(aborts.current).forEach((controller) => controller?.abort()), []);

  const showErrors = (next: Record<string, string>) => {
    const folded = foldItemErrors(next);
    setErrors(folded);
    const first = firstInvalidField(folded);
    if (first) refs.current[first]?.focus();
  };

  const setUpload = (field: DocumentField, state: UploadState) => setUploads((u) => ({ ...u, [field]: state }));
  const clearError = (field: string) =>
    setErrors((e) => {
      if (!(field in e)) return e;
      const { [field]: _removed, ...rest } = e;
      return rest;
    });

  const startUpload = (field: DocumentField, file: File) => {
    aborts.current[field]?.abort();
    const controller = new AbortController();
    aborts.current[field] = controller;
    clearError(field);
    setUpload(field, { status: 'uploading', name: file.name, percent: 0 });
    uploadFile(file, 'company-documents', (percent) => setUpload(field, { status: 'uploading', name: file.name, percent }), controller.signal)
      .then(({ key }) => {
        if (aborts.current[field] !== controller) return;
        setUpload(field, { status: 'done', name: file.name, key });
      })
      .catch((error: unknown) => {
        if (aborts.current[field] !== controller || controller.signal.aborted) return;
        const message = error instanceof UploadError ? error.message : 'File upload failed';
        setUpload(field, { status: 'failed', name: file.name });
        setErrors((e) => ({ ...e, [field]: message }));
        toast({ title: 'File upload failed', description: `${file.name}: ${message}`, variant: 'destructive' });
      });
  };

  const removeUpload = (field: DocumentField) => {
    aborts.current[field]?.abort();
    delete aborts.current[field];
    clearError(field);
    setUpload(field, { status: 'idle' });
  };

  const submit = useMutation({
    mutationFn: (input: CompanyApplicationInput) => api('POST /api/company-applications', { body: input }),
    onSuccess: ({ id }, input) => {
      toast({ title: 'Application Submitted', description: 'We will contact you within 2-3 business days.' });
      setSubmitted({ id, companyName: input.companyName, emailAddress: input.emailAddress });
      setValues(emptyCompanyForm);
      setUploads({ businessLicenseUrl: { status: 'idle' }, insuranceCertificateUrl: { status: 'idle' } });
      window.scrollTo({ top: 0 });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) showErrors(error.fields);
      toast({ title: 'Submission Failed', description: SUBMIT_FAILED, variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submit.isPending) return;
    const documentErrors: Record<string, string> = {};
    const keys: Partial<Record<DocumentField, string>> = {};
    for (const field of ['businessLicenseUrl', 'insuranceCertificateUrl'] as const) {
      const state = uploads[field];
      if (state.status === 'uploading') documentErrors[field] = 'Wait for the upload to finish';
      if (state.status === 'failed') documentErrors[field] = errors[field] ?? 'File upload failed: choose the file again or clear it';
      if (state.status === 'done') keys[field] = state.key;
    }
    const result = validateCompanyApplication(values, keys);
    const allErrors = { ...(result.ok ? {} : result.errors), ...documentErrors };
    if (!result.ok || Object.keys(documentErrors).length) return showErrors(allErrors);
    setErrors({});
    submit.mutate(result.input);
  };

  const ref = (field: CompanyField) => (el: HTMLElement | null) => {
    refs.current[field] = el;
  };
  const bind = (field: TextField) => ({
    name: field,
    value: values[field],
    ref: ref(field),
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((v) => ({ ...v, [field]: value }));
    },
  });
  const toggleWorkerType = (type: string, checked: boolean) =>
    setValues((v) => ({
      ...v,
      workerTypesNeeded: checked ? [...v.workerTypesNeeded, type] : v.workerTypesNeeded.filter((t) => t !== type),
    }));

  if (submitted) {
    return (
      <div className="mx-auto max-w-2xl px-4 py-16">
        <Card className="text-center">
          <PageHeader
            title="Application Submitted"
            subtitle={`Thank you, ${submitted.companyName}. We have emailed a confirmation to ${submitted.emailAddress}, with the link to follow your application. We review it within 2-3 business days.`}
            icon={<CircleCheck aria-hidden="true" className="size-14 text-green-400" />}
          />
          <p className="mb-2 text-sm text-slate-300">
            Reference: <span className="font-mono text-slate-100">{submitted.id}</span>
          </p>
          <p className="mb-6 text-sm text-slate-300">
            Keep this link to follow your application; anyone with it can see its status.
          </p>
          <div className="flex flex-wrap justify-center gap-3">
            <Link to={paths.companyApplicationStatus(submitted.id)} className={buttonClasses('outline', 'md')}>
              Check application status
            </Link>
            <Link to={paths.home} className={buttonClasses('primary', 'md')}>
              Back to Home
            </Link>
            <Button variant="outline" onClick={() => setSubmitted(undefined)}>
              Submit another application
            </Button>
          </div>
        </Card>
      </div>
    );
  }

  const sending = submit.isPending;
  const uploading = Object.values(uploads).some((u) => u.status === 'uploading');

  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <PageHeader
        title="Company Application"
        subtitle="Tell us about your business and the crews you need. We review every application within 2-3 business days."
        icon={<Building2 aria-hidden="true" className="size-12 text-amber-300" />}
      />
      <Card>
        <form noValidate onSubmit={onSubmit} className="grid gap-8" aria-busy={sending}>
          <FormAlert message={errors._} />

          <Section title="Company">
            <Field id="company-name" label="Company name" error={errors.companyName}>
              <input type="text" autoComplete="organization" {...bind('companyName')} />
            </Field>
            <Field id="company-business-type" label="Business type" error={errors.businessType}>
              <select {...bind('businessType')}>
                <option value="">Choose a business type</option>
                {businessTypes.map((type) => (
                  <option key={type} value={type}>
                    {type}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="company-address" label="Company address" error={errors.companyAddress}>
              <input type="text" autoComplete="street-address" {...bind('companyAddress')} />
            </Field>
            <Field id="company-ein" label="EIN / Tax ID (optional)" error={errors.einTaxId}>
              <input type="text" inputMode="numeric" placeholder="12-3456789" {...bind('einTaxId')} />
            </Field>
          </Section>

          <Section title="Contact person">
            <Field id="company-contact-name" label="Contact name" error={errors.contactPersonName}>
              <input type="text" autoComplete="name" {...bind('contactPersonName')} />
            </Field>
            <Field id="company-phone" label="Phone number" hint="At least 10 digits." error={errors.phoneNumber}>
              <input type="tel" autoComplete="tel" inputMode="tel" {...bind('phoneNumber')} />
            </Field>
            <Field id="company-email" label="Email address" error={errors.emailAddress}>
              <input type="email" autoComplete="email" {...bind('emailAddress')} />
            </Field>
          </Section>

          <Section title="Staffing needs">
            <fieldset aria-describedby={errors.workerTypesNeeded ? 'company-worker-types-error' : undefined}>
              <legend className="mb-2 text-sm font-semibold text-slate-100">Worker types needed</legend>
              <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
                {companyWorkerTypes.map((type, index) => {
                  const checked = values.workerTypesNeeded.includes(type);
                  return (
                    <label
                      key={type}
                      className={cn(
                        'flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2.5 text-sm focus-within:ring-2 focus-within:ring-amber-400',
                        checked ? 'border-amber-400 bg-amber-400/10' : errors.workerTypesNeeded ? 'border-red-400' : 'border-slate-600',
                      )}
                    >
                      <input
                        type="checkbox"
                        name="workerTypesNeeded"
                        value={type}
                        checked={checked}
                        ref={index === 0 ? ref('workerTypesNeeded') : undefined}
                        aria-invalid={errors.workerTypesNeeded ? true : undefined}
                        onChange={(event) => toggleWorkerType(type, event.target.checked)}
                        className="size-4 accent-amber-400"
                      />
                      {type}
                    </label>
                  );
                })}
              </div>
              {errors.workerTypesNeeded ? (
                <p id="company-worker-types-error" className="mt-1 text-sm font-medium text-red-300">
                  {errors.workerTypesNeeded}
                </p>
              ) : null}
            </fieldset>
            <Field id="company-worker-count" label="Typical number of workers" error={errors.typicalWorkerCount}>
              <select {...bind('typicalWorkerCount')}>
                <option value="">Choose a range</option>
                {typicalWorkerCounts.map((count) => (
                  <option key={count} value={count}>
                    {count} workers
                  </option>
                ))}
              </select>
            </Field>
            <Field id="company-duration" label="Average project duration" error={errors.averageProjectDuration}>
              <select {...bind('averageProjectDuration')}>
                <option value="">Choose a duration</option>
                {projectDurations.map((duration) => (
                  <option key={duration} value={duration}>
                    {duration}
                  </option>
                ))}
              </select>
            </Field>
          </Section>

          <Section title="Billing (optional)" description="Leave empty if invoices go to the contact person.">
            <Field id="company-billing-name" label="Billing contact name" error={errors.billingContactName}>
              <input type="text" autoComplete="off" {...bind('billingContactName')} />
            </Field>
            <Field id="company-billing-email" label="Billing contact email" error={errors.billingContactEmail}>
              <input type="email" autoComplete="off" {...bind('billingContactEmail')} />
            </Field>
          </Section>

          <Section title="Documents (optional)" description="Sending them now speeds up the review.">
            <FileUploadField
              id="company-business-license"
              label="Business license"
              hint={DOCUMENT_HINT}
              accept={ACCEPT}
              state={uploads.businessLicenseUrl}
              error={errors.businessLicenseUrl}
              disabled={sending}
              inputRef={ref('businessLicenseUrl')}
              onSelect={(file) => startUpload('businessLicenseUrl', file)}
              onRemove={() => removeUpload('businessLicenseUrl')}
            />
            <FileUploadField
              id="company-insurance-certificate"
              label="Insurance certificate"
              hint={DOCUMENT_HINT}
              accept={ACCEPT}
              state={uploads.insuranceCertificateUrl}
              error={errors.insuranceCertificateUrl}
              disabled={sending}
              inputRef={ref('insuranceCertificateUrl')}
              onSelect={(file) => startUpload('insuranceCertificateUrl', file)}
              onRemove={() => removeUpload('insuranceCertificateUrl')}
            />
          </Section>

          <div>
            <label className="flex cursor-pointer items-start gap-3 text-sm text-slate-100">
              <input
                type="checkbox"
                name="agreementAccepted"
                checked={values.agreementAccepted}
                ref={ref('agreementAccepted')}
                aria-invalid={errors.agreementAccepted ? true : undefined}
                aria-describedby={errors.agreementAccepted ? 'company-agreement-error' : undefined}
                onChange={(event) => {
                  const checked = event.target.checked;
                  setValues((v) => ({ ...v, agreementAccepted: checked }));
                }}
                className="mt-0.5 size-4 shrink-0 accent-amber-400"
              />
              <span>
                I confirm the information above is accurate and agree that workers are booked through the platform under its
                terms of service, with rates, platform fees and payment terms confirmed before each engagement.
              </span>
            </label>
            {errors.agreementAccepted ? (
              <p id="company-agreement-error" className="mt-1 text-sm font-medium text-red-300">
                {errors.agreementAccepted}
              </p>
            ) : null}
          </div>

          {uploading ? (
            <p role="status" className="-mb-4 text-sm text-slate-300">
              A document is still uploading; you can submit once it has finished.
            </p>
          ) : null}
          <Button type="submit" size="lg" disabled={sending}>
            {sending ? 'Submitting application…' : 'Submit Application'}
          </Button>
        </form>
      </Card>
    </div>
  );
}

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className="grid gap-5" aria-label={title}>
      <div className="border-b border-white/10 pb-2">
        <h2 className="text-lg font-bold text-white">{title}</h2>
        {description ? <p className="mt-1 text-sm text-slate-300">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}
