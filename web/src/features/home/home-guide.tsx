import { HardHat, ShieldCheck, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { paths } from '../../lib/paths';

interface FeaturedService {
  icon: LucideIcon;
  title: string;
  text: string;
  to: string;
  cta: string;
}

/** Featured Services link to /insurance and /contractors (which opens /workers). */
const featuredServices: readonly FeaturedService[] = [
  {
    icon: ShieldCheck,
    title: 'Insurance claim repairs',
    text: 'Storm, water, fire or other damage: a pro inspects it, puts it right, and leaves an itemised invoice (hours, rate, materials) you can give your insurer.',
    to: paths.insurance,
    cta: 'Insurance repairs',
  },
  {
    icon: HardHat,
    title: 'Contract workers',
    text: 'Kitchens, bathrooms, additions and repairs by verified tradespeople who set their own hourly rate and bill only the time they work.',
    to: paths.contractors,
    cta: 'Contract workers',
  },
];

/** "How It Works" in three steps (submit request, get matched, get it done). */
const howItWorks: readonly { title: string; text: string }[] = [
  { title: 'Submit a request', text: 'Choose the kind of professional, say where and describe the job. No account needed.' },
  {
    title: 'Get matched',
    text: 'Your request goes to the nearest available verified pros. The first to accept is yours: you see their name and phone number.',
  },
  { title: 'Get it done', text: 'Follow your pro on the way, check the finished work, then pay the invoice by card and rate the job.' },
];

/** The home page's Featured Services and "How It Works", below the request flow (its lazy chunk). */
export function HomeGuide() {
  return (
    <>
        <section aria-labelledby="featured-title" className="pt-6">
          <h2 id="featured-title" className="mb-6 text-3xl font-bold text-white">
            Featured Services
          </h2>
          <ul className="grid gap-6 md:grid-cols-2">
            {featuredServices.map(({ icon: Icon, title, text, to, cta }) => (
              <li key={title} className="flex flex-col rounded-2xl bg-slate-900/85 p-6 ring-1 ring-white/10">
                <span className="flex size-12 items-center justify-center rounded-full bg-amber-400 text-slate-950">
                  <Icon aria-hidden="true" className="size-6" />
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

        <section aria-labelledby="how-title" className="pt-6">
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
    </>
  );
}
