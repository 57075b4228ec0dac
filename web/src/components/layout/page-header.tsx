import type { ReactNode } from 'react';

/** The heading block at the top of a screen. */
export function PageHeader({ title, subtitle, icon }: { title: string; subtitle?: ReactNode; icon?: ReactNode }) {
  return (
    <div className="mb-8 text-center">
      {icon ? <div className="mb-4 flex justify-center">{icon}</div> : null}
      <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">{title}</h1>
      {subtitle ? <p className="mt-3 text-lg text-slate-200">{subtitle}</p> : null}
    </div>
  );
}
