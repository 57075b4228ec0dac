import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Save } from 'lucide-react';
import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router';
import { categories, type CategorySlug } from '../../../../shared/categories';
import { workerProfileSchema, type WorkerProfileInput, type WorkerSelf } from '../../../../shared/schemas/worker';
import { validate } from '../../../../shared/validation';
import { Field } from '../../components/ui/field';
import { PageHeader } from '../../components/layout/page-header';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/toast-store';
import { ApiError, errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { acceptAttribute, checkFile, UploadError, uploadFile } from '../../lib/upload';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useWorkerSession } from './session';
import { useFormErrors } from '../../lib/use-form-errors';
import { isUnauthorized, rememberWorker, useWorkerMe, workerCall } from './worker-api';
import { FormAlert } from '../../components/ui/form-alert';
import { WorkerTypeSetting } from './worker-type-setting';
import { LoadError, Loading } from '../../components/ui/load-state';

const fieldOrder = ['fullName', 'yearsExp', 'categories', 'hourlyRate', 'profilePhoto'] as const;
type ProfileField = (typeof fieldOrder)[number];

const PLACEHOLDER_KEY = 'uploads/profile-photos/AAAAAAAAAAAAAAAAAAAAAA.png';

export default function WorkerProfilePage() {
  useDocumentTitle('My Profile');
  const session = useWorkerSession();
  const me = useWorkerMe();
  if (!session.token) return <Navigate to={paths.workerLogin} replace />;

  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <PageHeader title="My Profile" subtitle="Keep your details current so customers see the right services and rate." />
      <Link to={paths.workerDashboard} className={buttonClasses('outline', 'sm', 'mb-6')}>
        <ArrowLeft aria-hidden="true" className="size-4" /> Back to Dashboard
      </Link>
      {me.data ? (
        <>
          <ProfileForm key={me.data.id} worker={me.data} />
          <WorkerTypeSetting worker={me.data} />
        </>
      ) : me.isError && !isUnauthorized(me.error) ? (
        <LoadError message="Failed to fetch worker profile." onRetry={() => void me.refetch()} retrying={me.isFetching} />
      ) : (
        <Card>
          <Loading label="Loading your profile..." showLabel className="gap-4">
            <Skeleton className="h-11" />
            <Skeleton className="h-11" />
            <Skeleton className="h-24" />
          </Loading>
        </Card>
      )}
    </div>
  );
}

interface ProfileValues {
  fullName: string;
  yearsExp: string;
  categories: CategorySlug[];
  hourlyRate: string;
}

function toCandidate(values: ProfileValues, photoKey: string | undefined) {
  const years = values.yearsExp.trim() === '' ? undefined : Number(values.yearsExp);
  const rate = values.hourlyRate.trim() === '' ? undefined : Math.round(Number(values.hourlyRate) * 100);
  return {
    fullName: values.fullName,
    yearsExp: years,
    categories: values.categories,
    hourlyRate: rate,
    ...(photoKey ? { profilePhoto: photoKey } : {}),
  };
}

function ProfileForm({ worker }: { worker: WorkerSelf }) {
  const queryClient = useQueryClient();
  const { errors, show, clear, refFor } = useFormErrors<ProfileField>(fieldOrder);
  const [values, setValues] = useState<ProfileValues>({
    fullName: worker.fullName,
    yearsExp: String(worker.yearsExp),
    categories: worker.categories.filter((c): c is CategorySlug => categories.some((k) => k.slug === c)),
    hourlyRate: (worker.hourlyRate / 100).toFixed(2),
  });
  const [photo, setPhoto] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  // A new key empties the file input after a save.
  const [photoInputKey, setPhotoInputKey] = useState(0);

  useEffect(() => {
    if (!photo) return setPreview(null);
    const url = URL.createObjectURL(photo);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);

  const save = useMutation({
    mutationFn: async (input: WorkerProfileInput & { photo: File | null }) => {
      const { photo: file, ...body } = input;
      let profilePhoto: string | undefined;
      if (file) {
        setProgress(0);
        profilePhoto = (await uploadFile(file, 'profile-photos', setProgress)).key;
      }
      return await workerCall('PUT /api/workers/me', { body: { ...body, ...(profilePhoto ? { profilePhoto } : {}) } });
    },
    onSuccess: (updated) => {
      rememberWorker(queryClient, updated);
      setPhoto(null);
      setPhotoInputKey((k) => k + 1);
      setProgress(null);
      toast({ title: 'Profile Updated!', description: 'Your changes have been saved.' });
    },
    onError: (error) => {
      setProgress(null);
      if (error instanceof UploadError) {
        show({ profilePhoto: error.message });
        toast({ title: 'Update failed', description: error.message, variant: 'destructive' });
        return;
      }
      if (error instanceof ApiError && error.status === 400) show(error.fields);
      toast({ title: 'Update failed', description: errorMessage(error) ?? 'Failed to update profile', variant: 'destructive' });
    },
  });

  const onPhoto = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    if (!file) return setPhoto(null);
    try {
      checkFile(file, 'profile-photos');
      setPhoto(file);
      clear();
    } catch (error) {
      setPhoto(null);
      event.target.value = '';
      show({ profilePhoto: error instanceof Error ? error.message : 'Profile photo must be an image' });
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    const result = validate(workerProfileSchema, toCandidate(values, photo ? PLACEHOLDER_KEY : undefined));
    if (!result.success) return show(result.fields);
    clear();
    const { profilePhoto: _placeholder, ...input } = result.data;
    save.mutate({ ...input, photo });
  };

  const toggleCategory = (slug: CategorySlug) =>
    setValues((v) => ({ ...v, categories: v.categories.includes(slug) ? v.categories.filter((c) => c !== slug) : [...v.categories, slug] }));

  const sending = save.isPending;
  const photoUrl = preview ?? worker.profilePhotoUrl;
  return (
    <Card>
      <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={sending}>
        <FormAlert message={errors._} />
        <p className="text-sm text-slate-300">
          Signed in as <span className="font-semibold text-white">{worker.email}</span>
        </p>
        <Field id="profile-full-name" label="Full name" error={errors.fullName}>
          <input
            ref={refFor('fullName')}
            type="text"
            autoComplete="name"
            value={values.fullName}
            onChange={(e) => setValues((v) => ({ ...v, fullName: e.target.value }))}
          />
        </Field>
        <Field id="profile-years" label="Years of experience" error={errors.yearsExp}>
          <input
            ref={refFor('yearsExp')}
            type="number"
            inputMode="numeric"
            min={0}
            max={50}
            step={1}
            value={values.yearsExp}
            onChange={(e) => setValues((v) => ({ ...v, yearsExp: e.target.value }))}
          />
        </Field>
        <fieldset aria-describedby={errors.categories ? 'profile-categories-error' : undefined}>
          <legend className="mb-1.5 text-sm font-semibold text-slate-100">Service categories</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {categories.map((category, index) => (
              <label
                key={category.slug}
                className="flex cursor-pointer items-center gap-3 rounded-lg border border-white/15 px-3 py-2.5 hover:bg-white/5"
              >
                <input
                  ref={index === 0 ? refFor('categories') : undefined}
                  type="checkbox"
                  className="size-4 accent-amber-400"
                  checked={values.categories.includes(category.slug)}
                  onChange={() => toggleCategory(category.slug)}
                  aria-invalid={errors.categories ? true : undefined}
                />
                {category.slug === 'handyman' ? 'General Handyman' : category.name}
              </label>
            ))}
          </div>
          {errors.categories ? (
            <p id="profile-categories-error" className="mt-1 text-sm font-medium text-red-300">
              {errors.categories}
            </p>
          ) : null}
        </fieldset>
        <Field id="profile-rate" label="Hourly rate (USD)" hint="Between $15.00 and $200.00." error={errors.hourlyRate}>
          <input
            ref={refFor('hourlyRate')}
            type="number"
            inputMode="decimal"
            min={15}
            max={200}
            step={0.01}
            value={values.hourlyRate}
            onChange={(e) => setValues((v) => ({ ...v, hourlyRate: e.target.value }))}
          />
        </Field>
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
          {photoUrl ? (
            <img src={photoUrl} alt="Your profile photo" className="size-20 shrink-0 rounded-full object-cover ring-2 ring-white/20" />
          ) : (
            <div aria-hidden="true" className="flex size-20 shrink-0 items-center justify-center rounded-full bg-slate-700 text-2xl font-bold text-white">
              {worker.fullName.slice(0, 1).toUpperCase()}
            </div>
          )}
          <div className="flex-1">
            <Field id="profile-photo" label="Profile photo (optional)" hint="A JPG or PNG image, at most 10 MB." error={errors.profilePhoto}>
              <input key={photoInputKey} ref={refFor('profilePhoto')} type="file" accept={acceptAttribute('profile-photos')} onChange={onPhoto} className="text-sm" />
            </Field>
            {progress !== null ? (
              <div className="mt-2">
                <div
                  role="progressbar"
                  aria-label="Profile photo upload"
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={progress}
                  className="h-2 overflow-hidden rounded-full bg-slate-700"
                >
                  <div className={cn('h-full bg-amber-400 transition-[width]')} style={{ width: `${progress}%` }} />
                </div>
                <p className="mt-1 text-xs text-slate-300">Uploading photo: {progress}%</p>
              </div>
            ) : null}
          </div>
        </div>
        <Button type="submit" size="lg" disabled={sending}>
          <Save aria-hidden="true" className="size-4" />
          {sending ? 'Saving...' : 'Save Profile'}
        </Button>
      </form>
    </Card>
  );
}
