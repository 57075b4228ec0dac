import { Bath, ChefHat, Hammer, House, Wrench } from 'lucide-react';
import { Link } from 'react-router';
import { categories } from '../../../../shared/categories';
import { buttonClasses } from '../../components/ui/button';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { MarketingHero, MarketingRequestForm, OfferingList, ProcessSteps, type Offering, type Step } from './marketing-layout';

/** The services (kitchen, bathroom, additions, repairs). */
const services: readonly Offering[] = [
  { icon: ChefHat, title: 'Kitchen remodels', text: 'Cabinets, counters, sinks, lighting and appliances fitted by the trades each part needs.' },
  { icon: Bath, title: 'Bathroom remodels', text: 'New showers, tubs, toilets, vanities and tiling, with the plumbing and wiring done properly.' },
  { icon: House, title: 'Additions', text: 'Extra rooms, decks and garage conversions, from framing through to paint.' },
  { icon: Wrench, title: 'Repairs', text: 'The jobs that pile up: doors that stick, cracked drywall, leaking fixtures, loose rails.' },
];

/** A four-step process. */
const steps: readonly Step[] = [
  { title: 'Describe the project', text: 'Send the request below: what needs doing, where, and how to reach you.' },
  { title: 'Get matched', text: 'The nearest available verified pro of the trade accepts and you get their name and phone number.' },
  { title: 'Work begins', text: 'Follow your pro on the way. Billable time runs only from the moment they start work until they finish.' },
  { title: 'Verify and pay', text: 'Check the finished work, ask for changes if needed, then pay the invoice by card and rate the job.' },
];

export default function WorkersPage() {
  useDocumentTitle('Professional Workers');
  return (
    <div className="mx-auto max-w-6xl px-4">
      <MarketingHero
        eyebrow="Contract workers"
        title="Skilled tradespeople for projects big and small"
        subtitle="From a kitchen remodel to a sticking door, book verified professionals who set their own hourly rate and bill only the time they work."
      >
        <a href="#request" className={buttonClasses('primary', 'lg', 'mt-8')}>
          Request a pro
        </a>
      </MarketingHero>
      <MarketingRequestForm
        service="Contract Workers"
        title="Request a contract worker"
        intro="Tell us about the project. We send it to the nearest available professionals right away."
      />
      <OfferingList id="workers-services-title" title="Projects we take on" items={services} />
      <section aria-labelledby="specialties-title" className="pt-16">
        <h2 id="specialties-title" className="text-3xl font-bold text-white">
          Our specialties
        </h2>
        <p className="mt-2 max-w-3xl text-slate-200">
          Every pro is checked before their first job: identity, documents and the trades they work in.
        </p>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {categories.map((category) => (
            <li key={category.slug} className="flex flex-col rounded-2xl bg-slate-900/85 p-5 ring-1 ring-white/10">
              <h3 className="flex items-center gap-2 text-lg font-semibold text-white">
                <Hammer aria-hidden="true" className="size-5 text-amber-300" />
                {category.name}
              </h3>
              <p className="mt-2 flex-1 text-sm text-slate-200">{category.description}</p>
              <Link to={paths.service(category.slug)} className={buttonClasses('ghost', 'sm', 'mt-3 self-start')}>
                {category.name} details
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <ProcessSteps id="workers-process-title" title="How it works" steps={steps} />
    </div>
  );
}
