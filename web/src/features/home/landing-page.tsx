import { lazy, Suspense, type ComponentType, type SVGProps } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { CheckIcon, ShieldCheckIcon, SparklesIcon, ZapIcon } from '../../components/ui/icons';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';

// Its own chunk: the request flow would push '/' past its initial JavaScript budget.
const RequestSection = lazy(() => import('./request-section'));

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

/** Lucide's hard-hat (ISC License), inline like components/ui/icons.tsx: the first paint loads no icon library. */
function HardHatIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" {...props}>
      <path d="M10 10V5a1 1 0 0 1 1-1h2a1 1 0 0 1 1 1v5" />
      <path d="M14 6a6 6 0 0 1 6 6v3" />
      <path d="M4 15v-3a6 6 0 0 1 6-6" />
      <rect x="2" y="15" width="20" height="4" rx="1" />
    </svg>
  );
}

interface FeaturedService extends TrustBadge {
  to: string;
  cta: string;
}

/** Spec: Featured Services link to /insurance and /contractors (which opens /workers). */
const featuredServices: readonly FeaturedService[] = [
  {
    icon: ShieldCheckIcon,
    title: 'Insurance claim repairs',
    text: 'Storm, water, fire or other damage: a pro inspects it, records the work hour by hour with an itemised invoice you can give your insurer, and puts it right.',
    to: paths.insurance,
    cta: 'Insurance repairs',
  },
  {
    icon: HardHatIcon,
    title: 'Contract workers',
    text: 'Kitchens, bathrooms, additions and repairs by verified tradespeople who set their own hourly rate and bill only the time they work.',
    to: paths.contractors,
    cta: 'Contract workers',
  },
];

/** Spec: "How It Works" in three steps (submit request, get matched, get it done). */
const howItWorks: readonly Benefit[] = [
  { title: 'Submit a request', text: 'Choose the kind of professional, say where and describe the job. No account needed.' },
  {
    title: 'Get matched',
    text: 'Your request goes to the nearest available verified pros. The first to accept is yours: you see their name and phone number.',
  },
  { title: 'Get it done', text: 'Follow your pro on the way, check the finished work, then pay the invoice by card and rate the job.' },
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

      <Suspense fallback={<div aria-hidden="true" className="mb-16 h-96 rounded-2xl bg-slate-900/60" />}>
        <RequestSection />
      </Suspense>

      <section aria-labelledby="featured-title" className="pb-16">
        <h2 id="featured-title" className="mb-6 text-3xl font-bold text-white">
          Featured Services
        </h2>
        <ul className="grid gap-6 md:grid-cols-2">
          {featuredServices.map(({ icon: Icon, title, text, to, cta }) => (
            <li key={title} className="flex flex-col rounded-2xl bg-slate-900/85 p-6 ring-1 ring-white/10">
              <span className="flex size-12 items-center justify-center rounded-full bg-amber-400 text-slate-950">
                <Icon className="size-6" />
              </span>
              <h3 className="mt-4 text-xl font-semibold text-white">{title}</h3>
              <p className="mt-2 flex-1 text-slate-200">{text}</p>
              <Link to={to} className={buttonClasses('outline', 'md', 'mt-5 self-start')}>
                {cta}
                <span className="sr-only">: learn more</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="how-title" className="pb-16">
        <h2 id="how-title" className="mb-6 text-3xl font-bold text-white">
          How It Works
        </h2>
        <ol className="grid gap-6 md:grid-cols-3">
          {howItWorks.map(({ title, text }, index) => (
            <li key={title} className="rounded-2xl bg-slate-900/85 p-6 ring-1 ring-white/10">
              <span aria-hidden="true" className="flex size-10 items-center justify-center rounded-full bg-amber-400 text-lg font-bold text-slate-950">
                {index + 1}
              </span>
              <h3 className="mt-4 text-lg font-semibold text-white">
                <span className="sr-only">Step {index + 1}: </span>
                {title}
              </h3>
              <p className="mt-2 text-sm text-slate-200">{text}</p>
            </li>
          ))}
        </ol>
      </section>

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
