import { useQueryClient } from '@tanstack/react-query';
import { CalendarClock, CircleCheck, Download, Eye, FileUp, RefreshCw, ShieldAlert, Trash2, X } from 'lucide-react';
import { useEffect, useId, useReducer, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import {
  documentStatuses,
  documentTypes,
  todayUtc,
  type DocumentCategoryView,
  type DocumentStatus,
  type DocumentType,
  type DocumentView,
} from '../../../../shared/schemas/documents';
import { documentTypeLabels, expiryPhrase, shownMessage, statusLabels } from '../../domain/documents/document-display';
import { DocumentStatusBadge } from '../../domain/documents/document-status-badge';
import { useDocumentLink } from '../../domain/documents/use-document-link';
import { Field, inputClasses } from '../../components/ui/field';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ModalDialog } from '../../components/ui/modal-dialog';
import { toast } from '../../components/ui/toast-store';
import { ApiError } from '../../lib/api';
import { cn } from '../../lib/cn';
import { formatFileSize } from '../../lib/file-size';
import { documentName, hasFilters, missingRequired, noFilters, workerCategories, type DocumentFilters } from './document-filters';
import { acceptFor, formatsLabel, idleUpload, isUploading, prepareUpload, progressPercent, uploadReducer } from './document-upload';
import { fetchDocumentLink, uploadDocument, useDeleteDocument, useDocumentCategories, useDocuments, useExpiringDocuments } from './documents-api';
import { formatCalendarDate } from '../../lib/date-time';
import { formatDateTime } from '../../lib/date-time';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadError, Loading } from '../../components/ui/load-state';
import { queryKeys } from '../../lib/query-keys';

/**
 * The dashboard's Documents tab: what is still required, what
 * expires within 30 days, the upload form, and the worker's documents with filters.
 */
export function DocumentsPanel({ trades }: { trades: readonly string[] }) {
  const categories = useDocumentCategories();
  const [filters, setFilters] = useState<DocumentFilters>(noFilters);
  const listed = useDocuments(filters);
  // The required-documents check needs every document, whatever the filters show.
  const all = useDocuments(noFilters);
  const [target, setTarget] = useState<UploadTarget>({ kind: 'new', nonce: 0 });
  const uploadHeading = useRef<HTMLHeadingElement>(null);

  const workerCats = workerCategories(categories.data?.categories ?? []);
  const openUpload = (next: UploadTarget) => {
    setTarget(next);
    // After the form has re-rendered for the new target; no glide for people who asked for less motion.
    requestAnimationFrame(() => {
      const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      uploadHeading.current?.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
      uploadHeading.current?.focus({ preventScroll: true });
    });
  };
  const replace = (document: DocumentView) => openUpload({ kind: 'replace', document, nonce: Date.now() });

  return (
    <div className="grid gap-8">
      <div className="grid gap-6 lg:grid-cols-2">
        <RequiredSection
          categories={workerCats}
          trades={trades}
          documents={all.data?.documents}
          loading={categories.isPending || all.isPending}
          failed={categories.isError || all.isError}
          onUpload={(category) => openUpload({ kind: 'new', categoryId: category.id, nonce: Date.now() })}
        />
        <ExpiringSection onReplace={replace} />
      </div>

      <UploadCard
        key={target.nonce}
        headingRef={uploadHeading}
        categories={workerCats}
        categoriesQuery={categories}
        target={target}
        onCancelReplace={() => setTarget({ kind: 'new', nonce: Date.now() })}
      />

      <section aria-labelledby="my-documents-heading">
        <h2 id="my-documents-heading" className="mb-4 text-xl font-semibold text-white">
          My documents
        </h2>
        <FilterBar categories={workerCats} filters={filters} onChange={setFilters} />
        {listed.isError ? (
          <LoadError
            className="mb-4"
            message="Failed to fetch documents"
            detail={shownMessage(listed.error, '') || undefined}
            onRetry={() => void listed.refetch()}
            retrying={listed.isFetching}
          />
        ) : null}
        {listed.isPending ? (
          <Loading label="Loading your documents..." rowClassName="h-32 w-full" />
        ) : listed.isError && !listed.data ? null : listed.data.documents.length === 0 ? (
          <Card className="text-center">
            {hasFilters(filters) ? (
              <>
                <p className="text-lg font-semibold text-white">No documents match these filters</p>
                <Button variant="outline" size="sm" className="mt-4" onClick={() => setFilters(noFilters)}>
                  Clear filters
                </Button>
              </>
            ) : (
              <>
                <p className="text-lg font-semibold text-white">No documents yet</p>
                <p className="mt-2 text-slate-300">Upload your licence, insurance and tax forms above; they appear here with their review status.</p>
              </>
            )}
          </Card>
        ) : (
          <ul className="grid gap-4" aria-label="My documents" aria-busy={listed.isPlaceholderData || undefined}>
            {listed.data.documents.map((document) => (
              <li key={document.id}>
                <DocumentCard document={document} onReplace={() => replace(document)} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

type UploadTarget =
  | { kind: 'new'; categoryId?: string; nonce: number }
  | { kind: 'replace'; document: DocumentView; nonce: number };

function RequiredSection({
  categories,
  trades,
  documents,
  loading,
  failed,
  onUpload,
}: {
  categories: DocumentCategoryView[];
  trades: readonly string[];
  documents: DocumentView[] | undefined;
  loading: boolean;
  failed: boolean;
  onUpload: (category: DocumentCategoryView) => void;
}) {
  const missing = documents ? missingRequired(categories, documents, trades, todayUtc()) : [];
  return (
    <section aria-labelledby="required-heading">
      <Card className="h-full">
        <h2 id="required-heading" className="flex items-center gap-2 text-lg font-semibold text-white">
          <ShieldAlert aria-hidden="true" className="size-5 text-amber-300" /> Required documents
        </h2>
        {loading && !failed ? (
          <Loading label="Checking your required documents..." rowClassName="h-10 w-full" className="mt-3" />
        ) : failed || !documents ? (
          <p className="mt-3 text-sm text-slate-300">The required documents show once your documents and categories load.</p>
        ) : missing.length === 0 ? (
          <p className="mt-3 flex items-center gap-2 text-sm text-green-300">
            <CircleCheck aria-hidden="true" className="size-4" /> Every required document is on file.
          </p>
        ) : (
          <>
            <p className="mt-3 text-sm text-slate-200">
              Still needed ({missing.length}). A rejected or expired document needs a new upload.
            </p>
            <ul className="mt-3 grid gap-2" aria-label="Required documents still missing">
              {missing.map((category) => (
                <li key={category.id} className="flex items-center justify-between gap-3 rounded-lg bg-slate-950/50 px-3 py-2">
                  <span className="min-w-0 text-sm">
                    <span className="font-semibold text-white">{category.name}</span>{' '}
                    <span className="text-slate-300">· {documentTypeLabels[category.documentType]}</span>
                  </span>
                  <Button variant="outline" size="sm" className="shrink-0" onClick={() => onUpload(category)} aria-label={`Upload ${category.name}`}>
                    <FileUp aria-hidden="true" className="size-4" /> Upload
                  </Button>
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>
    </section>
  );
}

function ExpiringSection({ onReplace }: { onReplace: (document: DocumentView) => void }) {
  const expiring = useExpiringDocuments();
  const today = todayUtc();
  const documents = [...(expiring.data?.documents ?? [])].sort((a, b) => (a.expirationDate ?? '').localeCompare(b.expirationDate ?? ''));
  return (
    <section aria-labelledby="expiring-heading">
      <Card className="h-full">
        <h2 id="expiring-heading" className="flex items-center gap-2 text-lg font-semibold text-white">
          <CalendarClock aria-hidden="true" className="size-5 text-amber-300" /> Expiring within 30 days
        </h2>
        {expiring.isError ? (
          <div className="mt-3">
            <LoadError className="mb-4" message="Failed to fetch documents" onRetry={() => void expiring.refetch()} retrying={expiring.isFetching} />
          </div>
        ) : expiring.isPending ? (
          <Loading label="Loading expiring documents..." rowClassName="h-10 w-full" className="mt-3" />
        ) : documents.length === 0 ? (
          <p className="mt-3 text-sm text-slate-300">No documents expire within the next 30 days.</p>
        ) : (
          <ul className="mt-3 grid gap-2" aria-label="Documents expiring within 30 days">
            {documents.map((document) => (
              <li key={document.id} className="flex items-center justify-between gap-3 rounded-lg bg-slate-950/50 px-3 py-2">
                <span className="min-w-0 text-sm">
                  <span className="block truncate font-semibold text-white">{documentName(document)}</span>
                  <span className="text-orange-200">
                    {document.expirationDate ? `${expiryPhrase(document.expirationDate, today)} (${formatCalendarDate(document.expirationDate)})` : null}
                  </span>
                </span>
                <Button variant="outline" size="sm" className="shrink-0" onClick={() => onReplace(document)} aria-label={`Replace ${documentName(document)}`}>
                  <RefreshCw aria-hidden="true" className="size-4" /> Replace
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}

function UploadCard({
  headingRef,
  categories,
  categoriesQuery,
  target,
  onCancelReplace,
}: {
  headingRef: RefObject<HTMLHeadingElement | null>;
  categories: DocumentCategoryView[];
  categoriesQuery: ReturnType<typeof useDocumentCategories>;
  target: UploadTarget;
  onCancelReplace: () => void;
}) {
  const queryClient = useQueryClient();
  const base = useId();
  const replacing = target.kind === 'replace' ? target.document : null;
  const [categoryId, setCategoryId] = useState(replacing?.categoryId ?? (target.kind === 'new' ? (target.categoryId ?? '') : ''));
  const [file, setFile] = useState<File | null>(null);
  const [fileInputKey, setFileInputKey] = useState(0);
  const [displayName, setDisplayName] = useState('');
  const [description, setDescription] = useState('');
  const [expirationDate, setExpirationDate] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [upload, dispatch] = useReducer(uploadReducer, idleUpload);
  const controller = useRef<AbortController | null>(null);
  const busy = isUploading(upload);

  // Leaving the tab mid-upload stops the transfer: nothing would confirm it.
  useEffect(() => () => controller.current?.abort(), []);

  const category = categories.find((c) => c.id === categoryId);
  const ids = { category: `${base}-category`, file: `${base}-file`, name: `${base}-name`, description: `${base}-description`, expiry: `${base}-expiry` };

  const chooseCategory = (id: string) => {
    setCategoryId(id);
    // The accept list changes with the category: a file chosen for another one starts over.
    setFile(null);
    setFileInputKey((key) => key + 1);
    setErrors({});
  };

  const focusFirstError = (fields: Record<string, string>) => {
    const order: [string, string][] = [
      ['categoryId', ids.category],
      ['file', ids.file],
      ['displayName', ids.name],
      ['description', ids.description],
      ['expirationDate', ids.expiry],
    ];
    const first = order.find(([key]) => fields[key]);
    if (first) document.getElementById(first[1])?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const prepared = prepareUpload({ categoryId, file, displayName, description, expirationDate, replacesDocumentId: replacing?.id }, category);
    if (!prepared.ok) {
      setErrors(prepared.fields);
      focusFirstError(prepared.fields);
      return;
    }
    setErrors({});
    const abort = new AbortController();
    controller.current = abort;
    dispatch({ type: 'start', filename: file!.name });
    try {
      const uploaded = await uploadDocument(
        prepared.body,
        file!,
        (percent) => dispatch({ type: 'progress', percent }),
        () => dispatch({ type: 'sent' }),
        abort.signal,
      );
      dispatch({ type: 'confirmed', document: uploaded });
      toast({
        title: 'Upload Successful',
        description:
          uploaded.status === 'pending_review' ? `${documentName(uploaded)} was uploaded and is waiting for review.` : `${documentName(uploaded)} was uploaded.`,
      });
      setFile(null);
      setFileInputKey((key) => key + 1);
      setDisplayName('');
      setDescription('');
      setExpirationDate('');
      if (replacing) onCancelReplace();
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') {
        dispatch({ type: 'reset' });
        return;
      }
      const message = shownMessage(error, 'Upload failed');
      if (error instanceof ApiError && error.status === 400) {
        const fields = Object.fromEntries(
          Object.entries(error.fields).map(([key, value]) => [key === 'filename' || key === 'fileSize' || key === 'contentType' ? 'file' : key, value]),
        );
        setErrors(fields);
      }
      dispatch({ type: 'failed', message });
      toast({ title: 'Upload Failed', description: message, variant: 'destructive' });
    } finally {
      controller.current = null;
      void queryClient.invalidateQueries({ queryKey: queryKeys.documents });
    }
  };

  const fileHint = category
    ? `${formatsLabel(category)}, up to ${category.maxFileSizeMB} MB.${file ? ` Chosen: ${file.name} (${formatFileSize(file.size)}).` : ''}`
    : 'Choose a category first.';

  return (
    <section aria-labelledby={`${base}-heading`}>
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h2 id={`${base}-heading`} ref={headingRef} tabIndex={-1} className="rounded text-xl font-semibold text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300">
            {replacing ? `Replace ${documentName(replacing)}` : 'Upload a document'}
          </h2>
          {replacing ? (
            <Button variant="ghost" size="sm" onClick={onCancelReplace} disabled={busy}>
              <X aria-hidden="true" className="size-4" /> Cancel replace
            </Button>
          ) : null}
        </div>
        {replacing ? (
          <p className="mt-2 text-sm text-slate-300">
            The new file becomes version {replacing.version + 1}; version {replacing.version} is kept on record.
          </p>
        ) : null}

        {categoriesQuery.isError ? (
          <div className="mt-4">
            <LoadError
              className="mb-4"
              message="Failed to fetch categories"
              detail={shownMessage(categoriesQuery.error, '') || undefined}
              onRetry={() => void categoriesQuery.refetch()}
              retrying={categoriesQuery.isFetching}
            />
          </div>
        ) : null}

        <form className="mt-4 grid gap-4 md:grid-cols-2" onSubmit={(event) => void submit(event)} noValidate>
          <FormAlert message={errors._} className="md:col-span-2" />
          <Field
            id={ids.category}
            label="Document category"
            hint={category ? `${category.description} ${category.isRequired ? '(required)' : '(optional)'}` : categoriesQuery.isPending ? 'Loading categories...' : undefined}
            error={errors.categoryId}
          >
            <select value={categoryId} onChange={(event) => chooseCategory(event.target.value)} disabled={busy || Boolean(replacing) || !categoriesQuery.data}>
              <option value="">Select a category</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                  {c.isRequired ? ' (required)' : ''}
                </option>
              ))}
            </select>
          </Field>

          <div>
            <label htmlFor={ids.file} className="mb-1.5 block text-sm font-semibold text-slate-100">
              File
            </label>
            <input
              key={fileInputKey}
              id={ids.file}
              type="file"
              accept={category ? acceptFor(category) : undefined}
              disabled={!category || busy}
              aria-invalid={errors.file ? true : undefined}
              aria-describedby={`${ids.file}-hint${errors.file ? ` ${ids.file}-error` : ''}`}
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                setErrors(({ file: _file, _: _form, ...rest }) => rest);
              }}
              className={cn(
                'block w-full rounded-lg border border-dashed bg-slate-950/40 p-2 text-sm text-slate-200 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-white file:px-3 file:py-2 file:text-sm file:font-semibold file:text-slate-900 hover:file:bg-slate-200',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 focus-visible:ring-offset-2 focus-visible:ring-offset-slate-900 disabled:cursor-not-allowed disabled:opacity-60',
                errors.file ? 'border-red-400' : 'border-slate-500',
              )}
            />
            <p id={`${ids.file}-hint`} className="mt-1 text-sm text-slate-300">
              {fileHint}
            </p>
            {errors.file ? (
              <p id={`${ids.file}-error`} className="mt-1 text-sm font-medium text-red-300">
                {errors.file}
              </p>
            ) : null}
          </div>

          <Field id={ids.name} label="Display name (optional)" error={errors.displayName}>
            <input type="text" maxLength={100} value={displayName} onChange={(event) => setDisplayName(event.target.value)} disabled={busy} />
          </Field>

          {category?.expirationRequired ? (
            <Field id={ids.expiry} label="Expiration date" hint="The date printed on the document. We remind you 30 and 7 days before." error={errors.expirationDate}>
              <input type="date" min={nextDay(todayUtc())} value={expirationDate} onChange={(event) => setExpirationDate(event.target.value)} disabled={busy} />
            </Field>
          ) : null}

          <div className="md:col-span-2">
            <Field id={ids.description} label="Description (optional)" error={errors.description}>
              <textarea rows={2} maxLength={500} value={description} onChange={(event) => setDescription(event.target.value)} disabled={busy} />
            </Field>
          </div>

          <div className="md:col-span-2">
            <UploadProgress state={upload} />
            <div className="mt-3 flex flex-wrap gap-3">
              <Button type="submit" disabled={!category || busy}>
                <FileUp aria-hidden="true" className="size-4" />
                {busy ? 'Uploading...' : replacing ? 'Upload Replacement' : 'Upload Document'}
              </Button>
              {busy ? (
                <Button variant="ghost" onClick={() => controller.current?.abort()} disabled={upload.phase === 'confirming'}>
                  Cancel upload
                </Button>
              ) : null}
            </div>
          </div>
        </form>
      </Card>
    </section>
  );
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

function UploadProgress({ state }: { state: ReturnType<typeof uploadReducer> }) {
  if (state.phase === 'idle') return null;
  if (state.phase === 'done') {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-green-300">
        <CircleCheck aria-hidden="true" className="size-4" /> {documentName(state.document)} uploaded.
      </p>
    );
  }
  if (state.phase === 'failed') {
    return (
      <FormAlert message={state.message} />
    );
  }
  const percent = progressPercent(state);
  const step = state.phase === 'preparing' ? 'Preparing upload...' : state.phase === 'confirming' ? 'Checking the file...' : `Uploading ${state.filename}...`;
  return (
    <div>
      <div className="mb-1 flex justify-between gap-3 text-sm text-slate-200">
        <span className="truncate">{step}</span>
        <span aria-hidden="true">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={`Uploading ${state.filename}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={state.phase === 'confirming' ? 'Sent, checking the file' : `${percent}%`}
        className="h-2 overflow-hidden rounded-full bg-slate-700"
      >
        <div className="h-full rounded-full bg-amber-400 transition-[width] duration-150" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

function FilterBar({ categories, filters, onChange }: { categories: DocumentCategoryView[]; filters: DocumentFilters; onChange: (filters: DocumentFilters) => void }) {
  const base = useId();
  const select = cn(inputClasses, 'border-slate-300 py-2 text-sm');
  return (
    <div role="group" aria-label="Filter documents" className="mb-4 grid gap-3 rounded-xl bg-slate-900/90 p-4 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end">
      <div>
        <label htmlFor={`${base}-category`} className="mb-1 block text-sm font-semibold text-slate-100">
          Category
        </label>
        <select id={`${base}-category`} className={select} value={filters.categoryId} onChange={(event) => onChange({ ...filters, categoryId: event.target.value })}>
          <option value="">All categories</option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${base}-status`} className="mb-1 block text-sm font-semibold text-slate-100">
          Status
        </label>
        <select id={`${base}-status`} className={select} value={filters.status} onChange={(event) => onChange({ ...filters, status: event.target.value as DocumentStatus | '' })}>
          <option value="">All statuses</option>
          {documentStatuses.map((status) => (
            <option key={status} value={status}>
              {statusLabels[status]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${base}-type`} className="mb-1 block text-sm font-semibold text-slate-100">
          Document type
        </label>
        <select id={`${base}-type`} className={select} value={filters.documentType} onChange={(event) => onChange({ ...filters, documentType: event.target.value as DocumentType | '' })}>
          <option value="">All types</option>
          {documentTypes.map((type) => (
            <option key={type} value={type}>
              {documentTypeLabels[type]}
            </option>
          ))}
        </select>
      </div>
      <Button variant="ghost" size="sm" onClick={() => onChange(noFilters)} disabled={!hasFilters(filters)}>
        Clear filters
      </Button>
    </div>
  );
}

function DocumentCard({ document, onReplace }: { document: DocumentView; onReplace: () => void }) {
  const name = documentName(document);
  const link = useDocumentLink(fetchDocumentLink);
  const [confirming, setConfirming] = useState(false);
  const today = todayUtc();
  const opening = link.opening;
  return (
    <article aria-label={name}>
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 className="truncate text-lg font-semibold text-white">{name}</h3>
            <p className="text-sm text-slate-300">
              {document.categoryName} · {documentTypeLabels[document.documentType]}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <DocumentStatusBadge status={document.status} />
            {document.expiringSoon ? <Badge tone="orange">Expiring soon</Badge> : null}
          </div>
        </div>
        <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          <Detail term="File">
            {document.filename} ({formatFileSize(document.fileSize)})
          </Detail>
          <Detail term="Uploaded">{formatDateTime(document.createdAt) ?? '—'}</Detail>
          {document.expirationDate ? (
            <Detail term="Expires">
              {formatCalendarDate(document.expirationDate)}
              {document.status !== 'expired' ? <span className="text-slate-300"> · {expiryPhrase(document.expirationDate, today)}</span> : null}
            </Detail>
          ) : null}
          {document.version > 1 ? <Detail term="Version">{document.version}</Detail> : null}
          {document.description ? (
            <Detail term="Description" className="sm:col-span-2">
              {document.description}
            </Detail>
          ) : null}
        </dl>
        {document.reviewNotes ? (
          <div className={cn('mt-4 rounded-lg p-3 text-sm', document.status === 'rejected' ? 'bg-red-950/70 text-red-100' : 'bg-slate-950/60 text-slate-200')}>
            <p className="font-semibold">{document.status === 'rejected' ? 'Rejected: review notes' : 'Review notes'}</p>
            <p className="mt-1 whitespace-pre-line">{document.reviewNotes}</p>
          </div>
        ) : null}
        <div className="mt-5 flex flex-wrap gap-3">
          <Button variant="outline" size="sm" disabled={opening !== undefined} onClick={() => void link.open(document.id, 'view')} aria-label={`View ${name}`}>
            <Eye aria-hidden="true" className="size-4" /> {opening?.mode === 'view' ? 'Opening...' : 'View'}
          </Button>
          <Button variant="outline" size="sm" disabled={opening !== undefined} onClick={() => void link.open(document.id, 'download')} aria-label={`Download ${name}`}>
            <Download aria-hidden="true" className="size-4" /> {opening?.mode === 'download' ? 'Preparing...' : 'Download'}
          </Button>
          <Button variant="ghost" size="sm" onClick={onReplace} aria-label={`Replace ${name}`}>
            <RefreshCw aria-hidden="true" className="size-4" /> Replace
          </Button>
          <Button variant="ghost" size="sm" className="text-red-200 hover:bg-red-950/60" onClick={() => setConfirming(true)} aria-label={`Delete ${name}`}>
            <Trash2 aria-hidden="true" className="size-4" /> Delete
          </Button>
        </div>
      </Card>
      {confirming ? <DeleteDialog document={document} onClose={() => setConfirming(false)} /> : null}
    </article>
  );
}

function DeleteDialog({ document, onClose }: { document: DocumentView; onClose: () => void }) {
  const remove = useDeleteDocument();
  const name = documentName(document);
  const [failure, setFailure] = useState<string>();
  const confirm = () =>
    remove.mutate(document, {
      onSuccess: onClose,
      onError: (error) => setFailure(shownMessage(error, 'Delete failed')),
    });
  return (
    <ModalDialog
      title="Delete this document?"
      description={`${name} (${document.categoryName}) will be removed from your documents.${document.status === 'approved' ? ' An approved document that is required has to be uploaded and approved again.' : ''}`}
      onClose={onClose}
    >
      <FormAlert message={failure} className="mb-4" />
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="ghost" onClick={onClose} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button variant="destructive" onClick={confirm} disabled={remove.isPending}>
          <Trash2 aria-hidden="true" className="size-4" /> {remove.isPending ? 'Deleting...' : 'Delete document'}
        </Button>
      </div>
    </ModalDialog>
  );
}

function Detail({ term, children, className }: { term: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('flex flex-wrap gap-1', className)}>
      <dt className="text-slate-300">{term}:</dt>
      <dd className="min-w-0 break-words text-white">{children}</dd>
    </div>
  );
}
