import { useQuery } from '@tanstack/react-query';
import { CalendarPlus, Clock, Mail, Search } from 'lucide-react';
import { Link } from 'react-router';
import type { PublicConfig } from '../../../../shared/schemas/config';
import { PageHeader } from '../../components/layout/page-header';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { mailto, paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { LoadError, Loading } from '../../components/ui/load-state';
import { queryKeys } from '../../lib/query-keys';

const SUPPORT_SUBJECT = 'Support request';

export default function ContactPage() {
  useDocumentTitle('Contact Us');
  const config = useQuery<PublicConfig>({ queryKey: queryKeys.config });

  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <PageHeader title="Contact Us" subtitle="Questions about a booking, a payment or joining as a pro? We’re here to help." />
      <div className="grid gap-6">
        <Card>
          <h2 className="flex items-center gap-2 text-xl font-semibold text-white">
            <Mail aria-hidden="true" className="size-5 text-amber-300" /> Email support
          </h2>
          {config.isPending ? (
            <Loading label="Loading contact details..." showLabel rows={1} rowClassName="h-11 w-56" className="mt-4" />
          ) : config.isError ? (
            <LoadError className="mt-4" message="We couldn’t load our support address just now." onRetry={() => void config.refetch()} retrying={config.isFetching} />
          ) : (
            <div className="mt-4">
              <p className="text-slate-200">
                Write to us at <span className="font-semibold text-white">{config.data.supportEmail}</span>.
              </p>
              <a href={mailto(config.data.supportEmail, SUPPORT_SUBJECT)} className={buttonClasses('primary', 'md', 'mt-4')}>
                <Mail aria-hidden="true" className="size-4" /> Email Support
              </a>
            </div>
          )}
          <p className="mt-6 flex items-start gap-2 text-slate-200">
            <Clock aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-300" />
            <span>
              We usually respond within 24 hours. For urgent matters, please use the booking system so a professional can be
              dispatched right away.
            </span>
          </p>
        </Card>

        <Card>
          <h2 className="text-xl font-semibold text-white">Quick links</h2>
          <div className="mt-4 flex flex-wrap gap-3">
            <Link to={paths.track()} className={buttonClasses('outline', 'md')}>
              <Search aria-hidden="true" className="size-4" /> Track a Booking
            </Link>
            <Link to={paths.book()} className={buttonClasses('primary', 'md')}>
              <CalendarPlus aria-hidden="true" className="size-4" /> Book a Service
            </Link>
          </div>
        </Card>
      </div>
    </div>
  );
}
