import { Link } from 'react-router';
import { PageHeader } from '../../components/layout/page-header';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage } from '../../lib/api';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { CategoryIcon } from './category-icon';
import { useServices } from './queries';
import { LoadError, Loading } from '../../components/ui/load-state';

export default function ServicesPage() {
  useDocumentTitle('Our Categories');
  const services = useServices();

  return (
    <div className="mx-auto max-w-7xl px-4 py-12">
      <PageHeader title="Our Categories" subtitle="Professional categories for all your needs" />

      {services.isPending ? (
        <Loading label="Loading categories..." showLabel className="gap-6 text-center">
          <div className="grid gap-6 text-left sm:grid-cols-2 lg:grid-cols-3">
            {[0, 1, 2].map((n) => (
              <Card key={n}>
                <Skeleton className="mb-4 size-12 rounded-full" />
                <Skeleton className="mb-2 h-6 w-1/2" />
                <Skeleton className="h-16 w-full" />
              </Card>
            ))}
          </div>
        </Loading>
      ) : services.isError ? (
        <LoadError
          className="mx-auto max-w-lg"
          message="We couldn’t load the categories"
          detail={errorMessage(services.error) ?? 'Please check your connection.'}
          onRetry={() => void services.refetch()}
          retrying={services.isFetching}
        />
      ) : services.data.length === 0 ? (
        <Card className="mx-auto max-w-lg text-center">
          <p className="text-slate-200">No categories are available right now.</p>
        </Card>
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {services.data.map((service) => (
            <li key={service.id}>
              <Card className="flex h-full flex-col">
                <span className="mb-4 flex size-12 items-center justify-center rounded-full bg-amber-400 text-slate-950">
                  <CategoryIcon category={service.category} />
                </span>
                <h2 className="text-xl font-semibold text-white">{service.name}</h2>
                <p className="mt-2 flex-1 text-slate-200">{service.description}</p>
                <div className="mt-6 flex flex-wrap gap-3">
                  <Link
                    to={paths.service(service.slug)}
                    className={buttonClasses('outline', 'sm')}
                    aria-label={`View Details: ${service.name}`}
                  >
                    View Details
                  </Link>
                  <Link
                    to={paths.book(service.slug)}
                    className={buttonClasses('primary', 'sm')}
                    aria-label={`Book Now: ${service.name}`}
                  >
                    Book Now
                  </Link>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
