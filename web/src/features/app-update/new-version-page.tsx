import { useEffect, useRef } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useDocumentTitle } from '../../lib/use-document-title';

/**
 * What a person sees when part of the app is gone because a new release replaced it while the page
 * was open (lib/new-version.ts). In the entry chunk, never lazy: it must show when chunks cannot load.
 */
export function NewVersionPage() {
  useDocumentTitle('New version available');
  const heading = useRef<HTMLHeadingElement>(null);
  // Said first by a screen reader: the screen it was opening did not come.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="mx-auto max-w-xl px-4 py-16" data-testid="new-version">
      <Card className="text-center">
        <h1 ref={heading} tabIndex={-1} className="text-3xl font-bold text-white outline-none">
          A new version of Fixly is available
        </h1>
        <p className="mt-3 text-slate-200">
          Fixly was updated while this page was open, and this screen belongs to the new version. Reload to continue where you were.
        </p>
        <Button className="mt-6" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </Card>
    </div>
  );
}
