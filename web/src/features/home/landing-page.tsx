import { lazy, Suspense, type ComponentType, type SVGProps } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { CheckIcon, ShieldCheckIcon, SparklesIcon, ZapIcon } from '../../components/ui/icons';
import { paths } from '../../lib/paths';
import { useAfterIdle } from '../../lib/use-after-idle';
import { useDocumentTitle } from '../../lib/use-document-title';

// Its own chunk, with the featured services and How It Works below it: they would push '/' past its
// initial JavaScript budget, and none of it is in the first screenful on a phone. It loads once the
// page is idle, so its rendering (and the customer's requests call) never competes with the first
// paint or hydration; the prerendered HTML holds the placeholder the browser's first render has too.
const RequestSection = lazy(() => import('./request-section'));

const requestPlaceholder = <div aria-hidden="true" className="mb-16 h-96 rounded-2xl bg-slate-900/60" />;

function RequestSectionWhenIdle() {
  return useAfterIdle() ? (
    <Suspense fallback={requestPlaceholder}>
      <RequestSection />
    </Suspense>
  ) : (
    requestPlaceholder
  );
}

interface Benefit {
  title: string;
  text: string;
}

interface TrustBadge extends Benefit {
  icon: ComponentType<SVGProps<SVGSVGElement>>;
}

const workerBenefits: readonly Benefit[] = [
  { title: 'Set your own hourly rate', text: 'You decide what your skills are worth and customers see your rate before they book.' },
  { title: 'Flexible schedule', text: 'Go on call when it suits you and take the jobs that fit your day.' },
  { title: 'Fast payments', text: 'Customers pay by card when the work is verified, and the money goes straight to your account.' },
  { title: 'Liability protection', text: 'Work with peace of mind: every job booked through the platform is covered.' },
];

const companyBenefits: readonly Benefit[] = [
  { title: 'Access to a skilled workforce', text: 'Reach vetted tradespeople across plumbing, electrical, construction, painting and more.' },
  { title: 'Competitive platform fees', text: 'One clear service fee on completed jobs, with no subscriptions or hidden charges.' },
  { title: 'Verified workers', text: 'Every worker’s identity and documents are checked before they can take a job.' },
  { title: 'Business verification', text: 'A verified company profile tells customers they are dealing with a real, registered business.' },
];

const trustBadges: readonly TrustBadge[] = [
  { icon: ZapIcon, title: 'Fast Response', text: 'Requests go to available pros nearby the moment you book.' },
  { icon: ShieldCheckIcon, title: 'Verified Workers', text: 'Identity and credentials checked before anyone reaches your door.' },
  { icon: SparklesIcon, title: 'Quality Service', text: 'You verify the work before you pay, and rate every job.' },
];

function BenefitList({ items }: { items: readonly Benefit[] }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {items.map(({ title, text }) => (
        <li key={title} className="flex gap-3 rounded-xl bg-slate-950/60 p-4">
          <CheckIcon className="mt-0.5 size-6 shrink-0 text-amber-300" />
          <div>
            <h4 className="font-semibold text-white">{title}</h4>
            <p className="mt-1 text-sm text-slate-200">{text}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

export default function LandingPage() {
  useDocumentTitle(undefined);
  return (
    <div className="mx-auto max-w-7xl px-4">
      <section aria-labelledby="hero-title" className="flex flex-col items-center py-20 text-center sm:py-28">
        <p className="mb-4 inline-flex rounded-full bg-slate-950/70 px-4 py-1 text-sm font-medium text-amber-200 ring-1 ring-amber-300/40">
          Plumbing · Electrical · Construction · Painting · Handyman · Cleaning
        </p>
        <h1 id="hero-title" className="max-w-3xl text-4xl font-extrabold tracking-tight text-white drop-shadow sm:text-6xl">
          Book trusted pros in seconds.
        </h1>
        <p className="mt-5 max-w-2xl text-lg text-slate-100 sm:text-xl">
          Connect with skilled professionals for all your service needs
        </p>
        <div className="mt-10 flex flex-wrap justify-center gap-3">
          <Link to={paths.book()} className={buttonClasses('primary', 'lg')}>
            Book Now
          </Link>
          <Link to={paths.services} className={buttonClasses('secondary', 'lg')}>
            See Services
          </Link>
          <Link to={paths.track()} className={buttonClasses('outline', 'lg')}>
            Track Booking
          </Link>
        </div>
        <div className="mt-4 flex flex-wrap justify-center gap-3">
          <Link to={paths.applyWorker} className={buttonClasses('outline', 'md')}>
            Apply as Worker
          </Link>
          <Link to={paths.applyCompany} className={buttonClasses('outline', 'md')}>
            Apply as Company
          </Link>
        </div>
      </section>

      <RequestSectionWhenIdle />

      <section aria-labelledby="trust-title" className="pb-16">
        <h2 id="trust-title" className="sr-only">
          Why customers book with us
        </h2>
        <ul className="grid gap-4 sm:grid-cols-3">
          {trustBadges.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex flex-col items-center rounded-2xl bg-slate-900/85 p-6 text-center ring-1 ring-white/10">
              <span className="flex size-12 items-center justify-center rounded-full bg-amber-400 text-slate-950">
                <Icon className="size-6" />
              </span>
              <h3 className="mt-3 text-lg font-semibold text-white">{title}</h3>
              <p className="mt-1 text-sm text-slate-200">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="join-title" className="pb-20">
        <h2 id="join-title" className="mb-8 text-center text-3xl font-bold text-white">
          Grow with Fixly
        </h2>
        <div className="grid gap-6 lg:grid-cols-2">
          <div className="rounded-2xl bg-slate-900/85 p-6 ring-1 ring-white/10">
            <h3 className="mb-4 text-xl font-semibold text-white">
              For workers
            </h3>
            <BenefitList items={workerBenefits} />
            <Link to={paths.applyWorker} className={buttonClasses('primary', 'md', 'mt-6')}>
              Apply as Worker
            </Link>
          </div>
          <div className="rounded-2xl bg-slate-900/85 p-6 ring-1 ring-white/10">
            <h3 className="mb-4 text-xl font-semibold text-white">
              For companies
            </h3>
            <BenefitList items={companyBenefits} />
            <Link to={paths.applyCompany} className={buttonClasses('primary', 'md', 'mt-6')}>
              Apply as Company
            </Link>
          </div>
        </div>
      </section>
    </div>
  );
}
