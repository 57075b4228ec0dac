import { Link } from 'react-router';
import { PageHeader } from '../../components/layout/page-header';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';

/** A screen a later issue builds: its title and an honest line, nothing that pretends to work. */
export default function UpcomingScreen({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <div className="mx-auto max-w-2xl px-4 py-16">
      <Card className="text-center">
        <PageHeader title={title} subtitle="This screen is not available yet." />
        <Link to={paths.home} className={buttonClasses('outline', 'md')}>
          Back to Home
        </Link>
      </Card>
    </div>
  );
}
