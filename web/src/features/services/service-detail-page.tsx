import { CheckCircle2 } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { genericIncluded } from '../../../../shared/categories';
import { PageHeader } from '../../components/layout/page-header';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { CategoryIcon } from './category-icon';
import { useService } from './queries';

export default function ServiceDetailPage() {
  const { slug } = useParams();
  const service = useService(slug);
  useDocumentTitle(service.data?.name ?? (service.isError || !slug ? 'Service Not Found' : 'Service'));

  if (slug && service.isPending) {
    return (
      <p role="status" className="mx-auto max-w-3xl px-4 py-16 text-center text-slate-200">
        Loading service details...
      </p>
    );
  }

  if (!slug || !service.data) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16">
        <Card className="text-center">
          <h1 className="text-2xl font-bold text-white">Service Not Found</h1>
          <p className="mt-2 text-slate-200">The service you're looking for could not be found.</p>
          <Link to={paths.services} className={buttonClasses('primary', 'md', 'mt-6')}>
            Back to Services
          </Link>
        </Card>
      </div>
    );
  }

  const { name, description, category, included } = service.data;
  const items: readonly string[] = included.length > 0 ? included : genericIncluded;

  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <PageHeader
        title={name}
        icon={
          <span className="flex size-16 items-center justify-center rounded-full bg-amber-400 text-slate-950">
            <CategoryIcon category={category} className="size-8" />
          </span>
        }
      />
      <Card>
        <section aria-labelledby="description-title">
          <h2 id="description-title" className="text-xl font-semibold text-white">
            Service Description
          </h2>
          <p className="mt-2 text-slate-200">{description}</p>
        </section>
        <section aria-labelledby="included-title" className="mt-8">
          <h2 id="included-title" className="text-xl font-semibold text-white">
            What's Included
          </h2>
          <ul className="mt-3 space-y-2">
            {items.map((item) => (
              <li key={item} className="flex gap-2 text-slate-200">
                <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-green-400" />
                <span>{item}</span>
              </li>
            ))}
          </ul>
        </section>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to={paths.book(service.data.slug)} className={buttonClasses('primary', 'md')}>
            Book this service
          </Link>
          <Link to={paths.services} className={buttonClasses('outline', 'md')}>
            Browse Other Services
          </Link>
        </div>
      </Card>
    </div>
  );
}
