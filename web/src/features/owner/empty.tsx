import type { ReactNode } from 'react';
import { Card } from '../../components/ui/card';

/** What a tab shows when its list has nothing in it: a title and, when it helps, what will appear here. */
export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Card className="text-center">
      <p className="text-lg font-semibold text-white">{title}</p>
      {children ? <p className="mt-2 text-slate-300">{children}</p> : null}
    </Card>
  );
}
