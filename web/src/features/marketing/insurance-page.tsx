import { CloudLightning, Droplets, Flame, House } from 'lucide-react';
import { buttonClasses } from '../../components/ui/button';
import { useDocumentTitle } from '../../lib/use-document-title';
import { MarketingHero, MarketingRequestForm, OfferingList, ProcessSteps, type Offering, type Step } from './marketing-layout';

/** Four services (storm, water, fire, property). */
const services: readonly Offering[] = [
  {
    icon: CloudLightning,
    title: 'Storm damage',
    text: 'Roofs, siding, fences, windows and gutters after wind, hail or a fallen tree: made safe first, then repaired.',
  },
  {
    icon: Droplets,
    title: 'Water damage',
    text: 'Burst pipes, leaks and overflows: a plumber stops the source, then floors, walls and ceilings are dried out and repaired.',
  },
  {
    icon: Flame,
    title: 'Fire damage',
    text: 'Clean-up after smoke and fire, an electrician’s check before the power goes back on, then rebuilding and repainting.',
  },
  {
    icon: House,
    title: 'Property damage',
    text: 'Break-ins, impacts and accidents: doors, locks, windows, drywall and fixtures repaired or replaced.',
  },
];

/** A four-step process (submit, inspection, documentation, resolution). */
const steps: readonly Step[] = [
  { title: 'Submit', text: 'Send the request below with your address and what was damaged. No account needed.' },
  { title: 'Inspection', text: 'The nearest available verified pro accepts, comes out and goes over the damage with you.' },
  {
    title: 'Documentation',
    text: 'The invoice itemises the hours, the hourly rate and the materials, so you have a clear record to give your insurer.',
  },
  { title: 'Resolution', text: 'The repair is done, you check the work before paying by card, and the invoice stays available to you.' },
];

export default function InsurancePage() {
  useDocumentTitle('Insurance Claims');
  return (
    <div className="mx-auto max-w-6xl px-4">
      <MarketingHero
        eyebrow="Insurance claim repairs"
        title="Damage repaired by verified pros, with the paperwork for your claim"
        subtitle="When a storm, a leak or a fire damages your home, book a professional who inspects it, repairs it and leaves you an itemised invoice."
      >
        <a href="#request" className={buttonClasses('primary', 'lg', 'mt-8')}>
          Request a repair
        </a>
      </MarketingHero>
      <MarketingRequestForm
        service="Insurance Claims"
        title="Request a damage repair"
        intro="Describe the damage and where it is. We send it to the nearest available professionals right away."
      />
      <OfferingList
        id="insurance-services-title"
        title="What we repair"
        intro="Fixly is not an insurer and does not file or settle claims: your insurer decides what your policy covers. We send the pro who fixes the damage."
        items={services}
      />
      <ProcessSteps id="insurance-process-title" title="How a claim repair works" steps={steps} />
    </div>
  );
}
