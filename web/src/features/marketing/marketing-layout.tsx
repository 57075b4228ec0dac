import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { RequestService } from '../../../../shared/domain/requests';
import { RequestFormPanel } from '../../domain/request-form/request-form-panel';
import { RequestSuccessBanner, useRequestSuccess } from '../../domain/request-form/request-success';
import { paths } from '../../lib/paths';

/** What the marketing pages share: a hero, the request form, a service list and a numbered process. */

export interface Offering {
  icon: LucideIcon;
  title: string;
  text: string;
}

export interface Step {
  title: string;
  text: string;
}

export function MarketingHero({ eyebrow, title, subtitle, children }: { eyebrow: string; title: string; subtitle: string; children?: ReactNode }) {
  return (
    <section aria-labelledby="marketing-title" className="flex flex-col items-center py-16 text-center sm:py-24">
      <p className="mb-4 inline-flex rounded-full bg-slate-950/70 px-4 py-1 text-sm font-medium text-amber-200 ring-1 ring-amber-300/40">{eyebrow}</p>
      <h1 id="marketing-title" className="max-w-3xl text-4xl font-extrabold tracking-tight text-white drop-shadow sm:text-5xl">
        {title}
      </h1>
      <p className="mt-5 max-w-2xl text-lg text-slate-100">{subtitle}</p>
      {children}
    </section>
  );
}

/**
 * The shared request form, in place, with this page's service chosen. A request sent here is the
 * same as one from the home page, so it is followed there under Your Requests.
 */
export function MarketingRequestForm({ service, title, intro }: { service: RequestService; title: string; intro: string }) {
  const success = useRequestSuccess();
  return (
    <section id="request" aria-labelledby="marketing-request-title" className="scroll-mt-24 rounded-2xl bg-slate-900/85 p-6 text-slate-100 ring-1 ring-white/10 sm:p-8">
      <RequestSuccessBanner visible={success.visible}>
        Request submitted! We are sending it to the nearest available professionals. Follow it on the{' '}
        <Link to={paths.home} className="font-semibold text-green-50 underline underline-offset-4">
          home page
        </Link>{' '}
        under Your Requests.
      </RequestSuccessBanner>
      <RequestFormPanel service={service} headingId="marketing-request-title" title={title} intro={intro} onSubmitted={success.announce} />
    </section>
  );
}

export function OfferingList({ id, title, intro, items }: { id: string; title: string; intro?: string; items: readonly Offering[] }) {
  return (
    <section aria-labelledby={id} className="pt-16">
      <h2 id={id} className="text-3xl font-bold text-white">
        {title}
      </h2>
      {intro ? <p className="mt-2 max-w-3xl text-slate-200">{intro}</p> : null}
      <ul className="mt-6 grid gap-6 sm:grid-cols-2">
        {items.map(({ icon: Icon, title: name, text }) => (
          <li key={name} className="rounded-2xl bg-slate-900/85 p-6 ring-1 ring-white/10">
            <span className="flex size-12 items-center justify-center rounded-full bg-amber-400 text-slate-950">
              <Icon aria-hidden="true" className="size-6" />
            </span>
            <h3 className="mt-4 text-xl font-semibold text-white">{name}</h3>
            <p className="mt-2 text-slate-200">{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ProcessSteps({ id, title, steps }: { id: string; title: string; steps: readonly Step[] }) {
  return (
    <section aria-labelledby={id} className="py-16">
      <h2 id={id} className="text-3xl font-bold text-white">
        {title}
      </h2>
      <ol className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {steps.map(({ title: name, text }, index) => (
          <li key={name} className="rounded-2xl bg-slate-900/85 p-6 ring-1 ring-white/10">
            <span aria-hidden="true" className="flex size-10 items-center justify-center rounded-full bg-amber-400 text-lg font-bold text-slate-950">
              {index + 1}
            </span>
            <h3 className="mt-4 text-lg font-semibold text-white">
              <span className="sr-only">Step {index + 1}: </span>
              {name}
            </h3>
            <p className="mt-2 text-sm text-slate-200">{text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
