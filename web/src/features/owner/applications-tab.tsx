import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Check, FileText, X } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api, errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/date-time';
import { formatMoney } from '../../lib/money';
import { label } from './format';
import { LoadError, Loading } from '../../components/ui/load-state';
import { Empty } from './empty';
import { useDocumentOpener } from './use-document-opener';
import { pollMs, type ApplicationDocument, type CompanyApplicationSummary, type PendingWorker } from './types';
import { COMPANY_REJECT_NOTES_REQUIRED, COMPANY_REVIEW_NOTES_MAX, WORKER_REJECT_NOTES_REQUIRED } from '../../../../shared/schemas/application-rules';
import type { CompanyApplicationDecision } from '../../../../shared/schemas/views/people';
import { Field } from '../../components/ui/field';
import { FormAlert } from '../../components/ui/form-alert';
import { queryKeys } from '../../lib/query-keys';
import { LoadMore } from '../../components/ui/load-more';
import { byCursor, itemsOf } from '../../lib/pages';

const documentLabels: Record<ApplicationDocument, string> = {
  idFront: 'ID front',
  idBack: 'ID back',
  selfie: 'Selfie',
};

const companyDocumentLabels: Record<string, string> = {
  businessLicense: 'Business license',
  insuranceCertificate: 'Insurance certificate',
};

/**
 * The pending applications, workers' and companies', oldest first, each list a page at a time
 * ("Load more" while the server answers a next cursor).
 */
export function ApplicationsTab() {
  const pending = useInfiniteQuery({
    queryKey: queryKeys.pendingWorkers,
    queryFn: ({ pageParam, signal }) => api('GET /api/admin/workers/pending', { query: { cursor: pageParam }, signal }),
    ...byCursor,
    refetchInterval: pollMs.pending,
    staleTime: 0,
  });
  const companies = useInfiniteQuery({
    queryKey: queryKeys.companyApplications,
    queryFn: ({ pageParam, signal }) => api('GET /api/admin/company-applications', { query: { cursor: pageParam }, signal }),
    ...byCursor,
    refetchInterval: pollMs.pending,
    staleTime: 0,
  });
  const workers: PendingWorker[] = itemsOf(pending.data);
  const companyList: CompanyApplicationSummary[] = itemsOf(companies.data);
  // A decided application leaves the pending list: what was decided stays in view here.
  const [decided, setDecided] = useState<DecidedCompany[]>([]);
  const onDecided = (decision: DecidedCompany) => setDecided((list) => [decision, ...list.filter((d) => d.id !== decision.id)]);

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-10">
      <section aria-labelledby="pending-workers-heading">
        <h2 id="pending-workers-heading" className="mb-4 text-xl font-bold text-white">
          Worker applications
        </h2>
        {pending.isPending ? (
          <Loading label="Loading pending applications…" />
        ) : pending.isError ? (
          <LoadError message="Failed to fetch pending applications" onRetry={() => void pending.refetch()} retrying={pending.isFetching} />
        ) : workers.length === 0 && !pending.hasNextPage ? (
          <Empty title="No pending applications">New worker applications appear here for review.</Empty>
        ) : (
          <>
            <ul className="grid gap-4">
              {workers.map((worker) => (
                <li key={worker.id}>
                  <PendingWorkerCard worker={worker} />
                </li>
              ))}
            </ul>
            <LoadMore list={pending} label="Load more worker applications" />
          </>
        )}
      </section>

      <section aria-labelledby="company-applications-heading">
        <h2 id="company-applications-heading" className="mb-4 text-xl font-bold text-white">
          Company applications
        </h2>
        {companies.isPending ? (
          <Loading label="Loading company applications…" />
        ) : companies.isError ? (
          <LoadError message="Failed to fetch company applications" onRetry={() => void companies.refetch()} retrying={companies.isFetching} />
        ) : companyList.length === 0 && !companies.hasNextPage ? (
          <Empty title="No pending company applications" />
        ) : (
          <>
            <CompanyTable applications={companyList} onDecided={onDecided} />
            <LoadMore list={companies} label="Load more company applications" />
          </>
        )}
        {decided.length > 0 ? <DecidedCompanies decided={decided} /> : null}
      </section>
    </div>
  );
}


/** Approve, or reject with notes (required: the applicant reads them on their account). */
function PendingWorkerCard({ worker }: { worker: PendingWorker }) {
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string>();
  const notesId = useId();
  const [notes, setNotes] = useState('');
  const [notesError, setNotesError] = useState<string>();
  const documents = useDocumentOpener(worker.id);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.pendingWorkers }),
      queryClient.invalidateQueries({ queryKey: queryKeys.workers }),
      queryClient.invalidateQueries({ queryKey: queryKeys.analytics }),
    ]);

  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') =>
      decision === 'approve'
        ? api('POST /api/admin/workers/{id}/approve', { params: { id: worker.id } })
        : api('POST /api/admin/workers/{id}/reject', { params: { id: worker.id }, body: { notes } }),
    onMutate: () => {
      setFailure(undefined);
      setNotesError(undefined);
      documents.clearFailure();
    },
    onSuccess: (_data, decision) => {
      toast(
        decision === 'approve'
          ? { title: 'Worker Approved', description: `${worker.fullName}’s account opens the dashboard (or will, once they create it).` }
          : { title: 'Worker Rejected', description: `${worker.fullName}’s application was rejected; their account shows your notes.` },
      );
    },
    onError: (error, decision) => {
      const fields = error instanceof ApiError ? error.fields : {};
      if (fields.notes) return setNotesError(fields.notes);
      setFailure(errorMessage(error) ?? (decision === 'approve' ? 'Failed to approve worker' : 'Failed to reject worker'));
    },
    onSettled: () => void refresh(),
  });

  const headingId = `pending-${worker.id}`;
  return (
    <Card aria-labelledby={headingId} role="group">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 id={headingId} className="text-lg font-semibold text-white">
            {worker.fullName}
          </h3>
          <p className="text-sm text-slate-300">Submitted {formatDateTime(worker.submittedAt) ?? '—'}</p>
        </div>
        <Badge tone="yellow">Pending review</Badge>
      </div>

      <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <Detail term="Email">
          <a href={`mailto:${worker.email}`} className="underline underline-offset-2 hover:text-amber-200">
            {worker.email}
          </a>
        </Detail>
        <Detail term="Phone">
          <a href={`tel:${worker.phone}`} className="underline underline-offset-2 hover:text-amber-200">
            {worker.phone}
          </a>
        </Detail>
        <Detail term="Address">{worker.address}</Detail>
        <Detail term="Experience">
          {worker.yearsExp} {worker.yearsExp === 1 ? 'year' : 'years'}
        </Detail>
        <Detail term="Hourly rate">{formatMoney(worker.hourlyRate)}</Detail>
        <Detail term="Services">{worker.categories.map(label).join(', ') || '—'}</Detail>
        {worker.workingHours ? <Detail term="Working hours">{worker.workingHours}</Detail> : null}
        {worker.availableSameDay !== null ? (
          <Detail term="Same-day jobs">{worker.availableSameDay ? 'Available' : 'Not available'}</Detail>
        ) : null}
      </dl>

      <div className="mt-5 flex flex-wrap items-center gap-2">
        <span className="text-sm font-semibold text-slate-200">Documents:</span>
        {worker.documents.length === 0 ? <span className="text-sm text-slate-300">None uploaded</span> : null}
        {worker.documents.map((document) => (
          <Button
            key={document}
            variant="outline"
            size="sm"
            disabled={documents.opening !== undefined}
            aria-label={`View ${documentLabels[document]} of ${worker.fullName}`}
            onClick={() => {
              setFailure(undefined);
              void documents.open(document, `${documentLabels[document]} document`);
            }}
          >
            <FileText aria-hidden="true" className="size-4" />
            {documents.opening === document ? 'Opening…' : `View ${documentLabels[document]}`}
          </Button>
        ))}
      </div>

      <FormAlert message={failure ?? documents.failure} className="mt-4" />

      <div className="mt-5 grid gap-3 border-t border-white/10 pt-5">
        <Field id={notesId} label={`Notes for ${worker.fullName}`} hint="Required to reject; shown to the applicant." error={notesError}>
          <textarea
            rows={2}
            maxLength={COMPANY_REVIEW_NOTES_MAX}
            value={notes}
            onChange={(event) => setNotes(event.target.value)}
            disabled={decide.isPending}
          />
        </Field>
      </div>
      <div className="mt-3 flex flex-wrap gap-3">
        <Button onClick={() => decide.mutate('approve')} disabled={decide.isPending} aria-label={`Approve ${worker.fullName}`}>
          <Check aria-hidden="true" className="size-4" />
          {decide.isPending && decide.variables === 'approve' ? 'Approving…' : 'Approve'}
        </Button>
        <Button
          variant="destructive"
          onClick={() => {
            if (!notes.trim()) {
              setNotesError(WORKER_REJECT_NOTES_REQUIRED);
              document.getElementById(notesId)?.focus();
              return;
            }
            decide.mutate('reject');
          }}
          disabled={decide.isPending}
          aria-label={`Reject ${worker.fullName}`}
        >
          <X aria-hidden="true" className="size-4" />
          {decide.isPending && decide.variables === 'reject' ? 'Rejecting…' : 'Reject'}
        </Button>
      </div>
    </Card>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="font-semibold text-slate-300">{term}</dt>
      <dd className="mt-0.5 break-words text-slate-100">{children}</dd>
    </div>
  );
}

function CompanyTable({ applications, onDecided }: { applications: CompanyApplicationSummary[]; onDecided: (decision: DecidedCompany) => void }) {
  return (
    <Card className="overflow-x-auto p-0 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300" role="region" aria-label="Pending company applications" tabIndex={0}>
      <table className="w-full min-w-[48rem] text-left text-sm">
        <caption className="sr-only">Pending company applications</caption>
        <thead className="border-b border-white/10 text-slate-300">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">Company</th>
            <th scope="col" className="px-4 py-3 font-semibold">Contact</th>
            <th scope="col" className="px-4 py-3 font-semibold">Email</th>
            <th scope="col" className="px-4 py-3 font-semibold">Business type</th>
            <th scope="col" className="px-4 py-3 font-semibold">Worker types</th>
            <th scope="col" className="px-4 py-3 font-semibold">Submitted</th>
            <th scope="col" className="px-4 py-3 font-semibold">Documents</th>
            <th scope="col" className="px-4 py-3 font-semibold">Decision</th>
          </tr>
        </thead>
        <tbody>
          {applications.map((application) => (
            <tr key={application.id} className="border-b border-white/5 last:border-0">
              <th scope="row" className="px-4 py-3 font-semibold text-white">{application.companyName}</th>
              <td className="px-4 py-3">{application.contactPersonName}</td>
              <td className="px-4 py-3">
                <a href={`mailto:${application.emailAddress}`} className="underline underline-offset-2 hover:text-amber-200">
                  {application.emailAddress}
                </a>
              </td>
              <td className="px-4 py-3">{application.businessType}</td>
              <td className="px-4 py-3">{application.workerTypesNeeded.join(', ')}</td>
              <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(application.submittedAt, 'date') ?? '—'}</td>
              <td className="px-4 py-3">
                <CompanyDocuments application={application} />
              </td>
              <td className="px-4 py-3 align-top">
                <CompanyDecisionForm application={application} onDecided={onDecided} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function CompanyDocuments({ application }: { application: CompanyApplicationSummary }) {
  const documents = useDocumentOpener(application.id);
  if (application.documents.length === 0) return <span className="text-slate-300">None</span>;
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap gap-2">
        {application.documents.map((document) => {
          const name = companyDocumentLabels[document] ?? document;
          return (
            <Button
              key={document}
              variant="outline"
              size="sm"
              className="whitespace-nowrap"
              disabled={documents.opening !== undefined}
              aria-label={`View ${name} of ${application.companyName}`}
              onClick={() => void documents.open(document, name.toLowerCase())}
            >
              <FileText aria-hidden="true" className="size-4" />
              {documents.opening === document ? 'Opening…' : `View ${name}`}
            </Button>
          );
        })}
      </div>
      {documents.failure ? (
        <p role="alert" className="text-sm font-medium text-red-300">
          {documents.failure}
        </p>
      ) : null}
    </div>
  );
}

type DecidedCompany = CompanyApplicationDecision & { companyName: string };

/** Approve (notes optional) or reject (notes required: the company reads them on its status page). */
function CompanyDecisionForm({ application, onDecided }: { application: CompanyApplicationSummary; onDecided: (decision: DecidedCompany) => void }) {
  const queryClient = useQueryClient();
  const notesId = useId();
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string>();

  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') =>
      decision === 'approve'
        ? api('POST /api/admin/company-applications/{id}/approve', { params: { id: application.id }, body: notes.trim() ? { notes } : {} })
        : api('POST /api/admin/company-applications/{id}/reject', { params: { id: application.id }, body: { notes } }),
    onMutate: () => setError(undefined),
    onSuccess: (decision) => {
      onDecided({ ...decision, companyName: application.companyName });
      toast({
        title: decision.status === 'approved' ? 'Company Approved' : 'Company Not Approved',
        description: `${application.companyName} sees the decision at its status link.`,
      });
    },
    onError: (failure) => {
      const fields = failure instanceof ApiError ? failure.fields : {};
      setError(fields.notes ?? errorMessage(failure) ?? 'The decision was not saved. Please try again.');
    },
    onSettled: () =>
      void Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.companyApplications }),
        queryClient.invalidateQueries({ queryKey: queryKeys.analytics }),
      ]),
  });

  const reject = () => {
    if (!notes.trim()) {
      setError(COMPANY_REJECT_NOTES_REQUIRED);
      document.getElementById(notesId)?.focus();
      return;
    }
    decide.mutate('reject');
  };

  return (
    <div className="grid min-w-56 gap-2">
      <Field id={notesId} label={`Notes for ${application.companyName}`} hint="Required to reject; shown to the company." error={error}>
        <textarea
          rows={2}
          maxLength={COMPANY_REVIEW_NOTES_MAX}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
          disabled={decide.isPending}
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => decide.mutate('approve')} disabled={decide.isPending} aria-label={`Approve ${application.companyName}`}>
          <Check aria-hidden="true" className="size-4" />
          {decide.isPending && decide.variables === 'approve' ? 'Approving…' : 'Approve'}
        </Button>
        <Button size="sm" variant="destructive" onClick={reject} disabled={decide.isPending} aria-label={`Reject ${application.companyName}`}>
          <X aria-hidden="true" className="size-4" />
          {decide.isPending && decide.variables === 'reject' ? 'Rejecting…' : 'Reject'}
        </Button>
      </div>
    </div>
  );
}

function DecidedCompanies({ decided }: { decided: DecidedCompany[] }) {
  return (
    <section aria-labelledby="decided-companies-heading" className="mt-6">
      <h3 id="decided-companies-heading" className="mb-3 text-lg font-semibold text-white">
        Decided just now
      </h3>
      <ul className="grid gap-3">
        {decided.map((decision) => (
          <li key={decision.id}>
            <Card role="group" aria-label={`Decision on ${decision.companyName}`}>
              <div className="flex flex-wrap items-center justify-between gap-3">
                <span className="font-semibold text-white">{decision.companyName}</span>
                <Badge tone={decision.status === 'approved' ? 'green' : 'red'}>{decision.status === 'approved' ? 'Approved' : 'Not approved'}</Badge>
              </div>
              {decision.reviewNotes ? <p className="mt-2 whitespace-pre-line break-words text-sm text-slate-200">{decision.reviewNotes}</p> : null}
              <p className="mt-1 text-xs text-slate-300">Decided {formatDateTime(decision.reviewedAt) ?? '—'}</p>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
