import { useQuery } from '@tanstack/react-query';
import { CircleCheck, CircleX, Clock } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import type { CompanyApplicationStatusView } from '../../../../shared/schemas/views/people';
import { PageHeader } from '../../components/layout/page-header';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { LoadError } from '../../components/ui/load-state';
import { ApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/date-time';
import { paths } from '../../lib/paths';
import { queryKeys } from '../../lib/query-keys';
import { useDocumentTitle } from '../../lib/use-document-title';

const shown: Record<CompanyApplicationStatusView['status'], { title: string; icon: ReactNode; says: string }> = {
  pending: {
    title: 'Under review',
    icon: <Clock aria-hidden="true" className="size-14 text-amber-300" />,
    says: 'We review every application within 2-3 business days. This page shows our decision as soon as it is made.',
  },
  approved: {
    title: 'Approved',
    icon: <CircleCheck aria-hidden="true" className="size-14 text-green-400" />,
    says: 'Welcome aboard. We will contact you to set up your first crew.',
  },
  rejected: {
    title: 'Not approved',
    icon: <CircleX aria-hidden="true" className="size-14 text-red-300" />,
    says: 'We could not approve this application.',
  },
};

/** The company's own status link (paths.companyApplicationStatus): the id it was given at submission. */
export default function CompanyApplicationStatusPage() {
  const { id = '' } = useParams();
  const application = useQuery<CompanyApplicationStatusView>({ queryKey: queryKeys.companyApplicationStatus(id), enabled: id !== '' });
  const notFound = application.error instanceof ApiError && application.error.status === 404;
  useDocumentTitle(application.data ? `Application ${shown[application.data.status].title}` : 'Company Application Status');

  if (application.isPending) {
    return (
      <p role="status" className="mx-auto max-w-2xl px-4 py-16 text-center text-slate-200">
        Loading your application…
      </p>
    );
  }

  if (!application.data) {
    return (
      <div className="mx-auto max-w-2xl px-4 py-16">
        <Card className="text-center">
          <h1 className="text-2xl font-bold text-white">{notFound ? 'Application Not Found' : 'Company Application Status'}</h1>
          {notFound ? (
            <p className="mt-2 text-slate-200">No company application has this link. Check that you copied all of it.</p>
          ) : (
            <LoadError
              className="mt-4"
              message="We couldn’t load your application just now."
              onRetry={() => void application.refetch()}
              retrying={application.isFetching}
            />
          )}
        </Card>
      </div>
    );
  }

  const { companyName, submittedAt, status, reviewNotes, reviewedAt } = application.data;
  const { title, icon, says } = shown[status];
  return (
    <div className="mx-auto max-w-2xl px-4 py-16">
      <Card className="text-center">
        <PageHeader title={title} subtitle={`${companyName}’s application`} icon={icon} />
        <p className="text-slate-200">{says}</p>
        {reviewNotes ? (
          <section aria-labelledby="review-notes-heading" className="mt-6 rounded-lg border border-white/10 p-4 text-left">
            <h2 id="review-notes-heading" className="text-sm font-semibold text-slate-300">
              Notes from our team
            </h2>
            <p className="mt-1 whitespace-pre-line break-words text-slate-100">{reviewNotes}</p>
          </section>
        ) : null}
        <dl className="mt-6 grid gap-2 text-sm text-slate-300 sm:grid-cols-2">
          <div>
            <dt className="font-semibold">Submitted</dt>
            <dd className="text-slate-100">{formatDateTime(submittedAt) ?? '—'}</dd>
          </div>
          {reviewedAt ? (
            <div>
              <dt className="font-semibold">Decided</dt>
              <dd className="text-slate-100">{formatDateTime(reviewedAt) ?? '—'}</dd>
            </div>
          ) : null}
        </dl>
        <Link to={paths.home} className={buttonClasses('outline', 'md', 'mt-8')}>
          Back to Home
        </Link>
      </Card>
    </div>
  );
}
