import { Check, Download, Eye, PauseCircle, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { documentReviewSchema, todayUtc, type ComplianceRow, type DocumentView } from '../../../../shared/schemas/documents';
import { validate } from '../../../../shared/validation';
import { documentTypeLabels, expiryPhrase, shownMessage } from '../../domain/documents/document-display';
import { DocumentStatusBadge } from '../../domain/documents/document-status-badge';
import { useDocumentLink } from '../../domain/documents/use-document-link';
import { Field } from '../../components/ui/field';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ModalDialog } from '../../components/ui/modal-dialog';
import { formatFileSize } from '../../lib/file-size';
import { fetchAdminDocumentLink, useCompliance, usePendingDocuments, useReviewDocument, useWorkerCompliance } from './documents-api';
import { LoadError, Loading } from '../../components/ui/load-state';
import { Empty } from './empty';
import { formatCalendarDate, formatDateTime } from '../../lib/date-time';
import { LoadMore } from '../../components/ui/load-more';
import { itemsOf } from '../../lib/pages';

/**
 * The owner's Documents tab: the documents waiting for review first (the to-do), then
 * every worker's compliance at a glance, and one worker's documents in full under it, each with
 * View, Download, Approve and Reject. Both lists come a page at a time with "Load more"; the
 * review queue's count is of what is loaded ("50+" while more pages remain), never a read of
 * every document.
 */
export function DocumentsTab() {
  const compliance = useCompliance();
  const [selected, setSelected] = useState<string>();
  const rows = itemsOf(compliance.data);

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-10">
      <PendingQueue />

      <section aria-labelledby="compliance-heading">
        <h2 id="compliance-heading" className="mb-4 text-xl font-bold text-white">
          Compliance
        </h2>
        {compliance.isPending ? (
          <Loading label="Loading compliance…" />
        ) : compliance.isError ? (
          <LoadError message="Failed to fetch compliance" onRetry={() => void compliance.refetch()} retrying={compliance.isFetching} />
        ) : rows.length === 0 && !compliance.hasNextPage ? (
          <Empty title="No workers yet">Each worker’s required documents show here once they have an account.</Empty>
        ) : (
          <>
            <ComplianceTable rows={rows} selected={selected} onSelect={setSelected} />
            <LoadMore list={compliance} label="Load more workers" />
          </>
        )}
      </section>

      {selected ? <WorkerDocuments workerId={selected} onClose={() => setSelected(undefined)} /> : null}
    </div>
  );
}


function ComplianceTable({ rows, selected, onSelect }: { rows: ComplianceRow[]; selected?: string; onSelect: (workerId: string) => void }) {
  return (
    <Card className="overflow-x-auto p-0 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300" role="region" aria-label="Worker compliance" tabIndex={0}>
      <table className="w-full min-w-[44rem] text-left text-sm">
        <caption className="sr-only">Each worker’s missing required documents, expiring documents and documents waiting for review</caption>
        <thead className="border-b border-white/10 text-slate-300">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">Worker</th>
            <th scope="col" className="px-4 py-3 font-semibold">Missing required</th>
            <th scope="col" className="px-4 py-3 font-semibold">Expiring (30 days)</th>
            <th scope="col" className="px-4 py-3 font-semibold">Pending review</th>
            <th scope="col" className="px-4 py-3 font-semibold">Offers</th>
            <th scope="col" className="px-4 py-3 font-semibold"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.workerId} className="border-b border-white/5 last:border-0">
              <th scope="row" className="px-4 py-3 font-semibold text-white">{row.fullName}</th>
              <td className="px-4 py-3">
                {row.missingRequired.length === 0 ? <span className="text-green-300">None</span> : <span className="text-orange-200">{row.missingRequired.join(', ')}</span>}
              </td>
              <td className="px-4 py-3">{row.expiringCount}</td>
              <td className="px-4 py-3">{row.pendingReviewCount}</td>
              <td className="px-4 py-3">{row.offersPaused ? <Badge tone="red">Paused</Badge> : <Badge tone="green">Receiving</Badge>}</td>
              <td className="px-4 py-3 text-right">
                <Button
                  variant={selected === row.workerId ? 'secondary' : 'outline'}
                  size="sm"
                  aria-pressed={selected === row.workerId}
                  onClick={() => onSelect(row.workerId)}
                  aria-label={`Documents of ${row.fullName}`}
                >
                  Documents
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function WorkerDocuments({ workerId, onClose }: { workerId: string; onClose: () => void }) {
  const detail = useWorkerCompliance(workerId);
  const heading = useRef<HTMLHeadingElement>(null);
  // The detail opens below the table: take focus there so keyboard and screen reader users follow.
  useEffect(() => {
    heading.current?.focus();
  }, [workerId]);
  const name = detail.data?.worker.fullName;
  return (
    <section aria-labelledby="worker-documents-heading">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id="worker-documents-heading" ref={heading} tabIndex={-1} className="rounded text-xl font-bold text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300">
          {name ? `Documents of ${name}` : 'Worker documents'}
        </h2>
        <Button variant="ghost" size="sm" onClick={onClose}>
          <X aria-hidden="true" className="size-4" /> Close
        </Button>
      </div>
      {detail.isPending ? (
        <Loading label="Loading the worker’s documents…" />
      ) : detail.isError ? (
        <LoadError message="Failed to fetch documents" onRetry={() => void detail.refetch()} retrying={detail.isFetching} />
      ) : (
        <div className="grid gap-4">
          {detail.data.offersPaused ? (
            <p className="flex items-center gap-2 rounded-lg bg-red-950/70 p-3 text-sm font-medium text-red-100">
              <PauseCircle aria-hidden="true" className="size-4" /> Offers are paused: a required document expired. They resume once a valid one is approved.
            </p>
          ) : null}
          <Card>
            <h3 className="font-semibold text-white">Missing required documents</h3>
            {detail.data.missingRequired.length === 0 ? (
              <p className="mt-2 text-sm text-green-300">None: every required document is on file.</p>
            ) : (
              <ul className="mt-2 list-disc pl-5 text-sm text-orange-100">
                {detail.data.missingRequired.map((category) => (
                  <li key={category.id}>
                    {category.name} <span className="text-slate-300">({documentTypeLabels[category.documentType]})</span>
                  </li>
                ))}
              </ul>
            )}
            <h3 className="mt-4 font-semibold text-white">Expiring within 30 days</h3>
            {detail.data.expiring.length === 0 ? (
              <p className="mt-2 text-sm text-slate-300">Nothing expires within 30 days.</p>
            ) : (
              <ul className="mt-2 list-disc pl-5 text-sm text-slate-100">
                {detail.data.expiring.map((document) => (
                  <li key={document.id}>
                    {document.displayName || document.filename} ({document.categoryName}):{' '}
                    {document.expirationDate ? `${formatCalendarDate(document.expirationDate)}, ${expiryPhrase(document.expirationDate, todayUtc()).toLowerCase()}` : '—'}
                  </li>
                ))}
              </ul>
            )}
          </Card>
          {detail.data.documents.length === 0 ? (
            <Empty title="No documents uploaded" />
          ) : (
            <ul className="grid gap-4" aria-label={`Documents of ${detail.data.worker.fullName}`}>
              {detail.data.documents.map((document) => (
                <li key={document.id}>
                  <DocumentReviewCard document={document} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

function PendingQueue() {
  const pending = usePendingDocuments();
  const documents = itemsOf(pending.data);
  const names = new Map(pending.data?.pages.flatMap((page) => Object.entries(page.workerNames)) ?? []);
  return (
    <section aria-labelledby="pending-documents-heading">
      <h2 id="pending-documents-heading" className="mb-4 text-xl font-bold text-white">
        Waiting for review{' '}
        {pending.data ? (
          <span className="text-base font-medium text-slate-300">
            ({documents.length}
            {pending.hasNextPage ? '+' : ''})
          </span>
        ) : null}
      </h2>
      {pending.isPending ? (
        <Loading label="Loading documents waiting for review…" />
      ) : pending.isError ? (
        <LoadError message="Failed to fetch documents" onRetry={() => void pending.refetch()} retrying={pending.isFetching} />
      ) : documents.length === 0 && !pending.hasNextPage ? (
        <Empty title="No documents waiting for review">Documents workers upload for required categories appear here.</Empty>
      ) : (
        <>
          <ul className="grid gap-4 lg:grid-cols-2" aria-label="Documents waiting for review">
            {documents.map((document) => (
              <li key={document.id}>
                <DocumentReviewCard document={document} workerName={names.get(document.workerId)} />
              </li>
            ))}
          </ul>
          <LoadMore list={pending} label="Load more documents" />
        </>
      )}
    </section>
  );
}

function DocumentReviewCard({ document, workerName }: { document: DocumentView; workerName?: string }) {
  const name = document.displayName || document.filename;
  const link = useDocumentLink(fetchAdminDocumentLink);
  const review = useReviewDocument();
  const [rejecting, setRejecting] = useState(false);
  const reviewable = document.status === 'pending_review' || document.status === 'uploaded';
  const whose = workerName ? ` of ${workerName}` : '';

  const approve = () => review.mutate({ id: document.id, review: { decision: 'approve' }, label: `${name}${whose}` });

  return (
    <article aria-label={`${name}${whose}`}>
      <Card className="h-full">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 className="truncate text-lg font-semibold text-white">{name}</h3>
            <p className="text-sm text-slate-300">
              {workerName ? `${workerName} · ` : ''}
              {document.categoryName} · {documentTypeLabels[document.documentType]}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <DocumentStatusBadge status={document.status} />
            {document.expiringSoon ? <Badge tone="orange">Expiring soon</Badge> : null}
          </div>
        </div>
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <Detail term="File">
            {document.filename} ({formatFileSize(document.fileSize)})
          </Detail>
          <Detail term="Uploaded">{formatDateTime(document.createdAt) ?? '—'}</Detail>
          {document.expirationDate ? <Detail term="Expires">{formatCalendarDate(document.expirationDate)}</Detail> : null}
          {document.version > 1 ? <Detail term="Version">{document.version}</Detail> : null}
          {document.description ? <Detail term="Description">{document.description}</Detail> : null}
          {document.reviewNotes ? <Detail term="Review notes">{document.reviewNotes}</Detail> : null}
        </dl>
        <div className="mt-5 flex flex-wrap gap-3 border-t border-white/10 pt-4">
          <Button variant="outline" size="sm" disabled={link.opening !== undefined} onClick={() => void link.open(document.id, 'view')} aria-label={`View ${name}${whose}`}>
            <Eye aria-hidden="true" className="size-4" /> {link.opening?.mode === 'view' ? 'Opening…' : 'View'}
          </Button>
          <Button variant="outline" size="sm" disabled={link.opening !== undefined} onClick={() => void link.open(document.id, 'download')} aria-label={`Download ${name}${whose}`}>
            <Download aria-hidden="true" className="size-4" /> {link.opening?.mode === 'download' ? 'Preparing…' : 'Download'}
          </Button>
          {reviewable ? (
            <>
              <Button size="sm" onClick={approve} disabled={review.isPending} aria-label={`Approve ${name}${whose}`}>
                <Check aria-hidden="true" className="size-4" /> {review.isPending && review.variables?.review.decision === 'approve' ? 'Approving…' : 'Approve'}
              </Button>
              <Button variant="destructive" size="sm" onClick={() => setRejecting(true)} disabled={review.isPending} aria-label={`Reject ${name}${whose}`}>
                <X aria-hidden="true" className="size-4" /> Reject
              </Button>
            </>
          ) : null}
        </div>
      </Card>
      {rejecting ? <RejectDialog document={document} name={`${name}${whose}`} onClose={() => setRejecting(false)} /> : null}
    </article>
  );
}

function RejectDialog({ document, name, onClose }: { document: DocumentView; name: string; onClose: () => void }) {
  const review = useReviewDocument();
  const notesId = useId();
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validate(documentReviewSchema, { decision: 'reject', notes });
    if (!checked.success) {
      setError(checked.fields.notes ?? checked.fields._ ?? 'Review failed');
      window.document.getElementById(notesId)?.focus();
      return;
    }
    setError(undefined);
    review.mutate(
      { id: document.id, review: checked.data, label: name },
      { onSuccess: onClose, onError: (failure) => setError(shownMessage(failure, 'Review failed')) },
    );
  };

  return (
    <ModalDialog title="Reject document" description={`Tell the worker what is wrong with ${name}, so they can upload a better one.`} onClose={onClose}>
      <form onSubmit={submit} noValidate className="grid gap-4">
        <Field id={notesId} label="Review notes" hint="Required to reject. The worker sees them with the document." error={error}>
          <textarea rows={4} maxLength={1000} value={notes} onChange={(event) => setNotes(event.target.value)} disabled={review.isPending} />
        </Field>
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="ghost" onClick={onClose} disabled={review.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="destructive" disabled={review.isPending}>
            {review.isPending ? 'Rejecting…' : 'Reject document'}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-300">{term}</dt>
      <dd className="min-w-0 break-words text-slate-100">{children}</dd>
    </>
  );
}
