import { useLocation, Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';

export default function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  const { pathname } = useLocation();
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <Card className="text-center">
        <h1 className="text-3xl font-bold text-white">404 Page Not Found</h1>
        <p className="mt-3 text-slate-200">
          There is no page at <code className="rounded bg-slate-950 px-1.5 py-0.5 font-mono text-amber-200">{pathname}</code>.
        </p>
        <p className="mt-2 text-sm text-slate-300">
          Developer hint: did you forget to add the page to the router (web/src/app/routes.tsx and web/src/lib/paths.ts)?
        </p>
        <Link to={paths.home} className={buttonClasses('primary', 'md', 'mt-6')}>
          Back to Home
        </Link>
      </Card>
    </div>
  );
}
