/**
 * The service catalogue. The six categories are seeded into the table on start (locally) and on
 * deploy (a custom resource), so the API reads them like any other data.
 */
export const categorySlugs = [
  'plumbing',
  'electrical',
  'construction',
  'painting',
  'handyman',
  'cleaning',
] as const;

export type CategorySlug = (typeof categorySlugs)[number];

export function isCategorySlug(value: string): value is CategorySlug {
  return (categorySlugs as readonly string[]).includes(value);
}

export interface CategorySeed {
  slug: CategorySlug;
  name: string;
  description: string;
  included: readonly string[];
}

export const categories: readonly CategorySeed[] = [
  {
    slug: 'plumbing',
    name: 'Plumbing',
    description:
      'Leaks, clogs, running toilets and failed water heaters fixed by licensed plumbers who arrive with the parts most jobs need, so the water is back on in one visit.',
    included: [
      'Leak detection and repair on taps, pipes and fittings',
      'Drain and toilet unclogging with camera inspection when needed',
      'Water heater diagnosis, repair and replacement',
      'Fixture installation: sinks, toilets, showers and faucets',
      'Shut-off valve and supply line replacement',
      'Clean-up of the work area and a written summary of the fix',
    ],
  },
  {
    slug: 'electrical',
    name: 'Electrical',
    description:
      'Safe, code-compliant electrical work from certified electricians: dead outlets, tripping breakers, new lighting and panel upgrades, tested before they leave.',
    included: [
      'Fault finding for dead outlets, flickering lights and tripping breakers',
      'Outlet, switch and dimmer installation or replacement',
      'Light fixture and ceiling fan installation',
      'Breaker panel inspection and circuit labelling',
      'GFCI and surge protection upgrades for kitchens and bathrooms',
      'Safety test of every circuit touched before sign-off',
    ],
  },
  {
    slug: 'construction',
    name: 'Construction',
    description:
      'Small builds and structural repairs handled by experienced builders: framing, drywall, decks and renovations, planned with you and finished to a clean standard.',
    included: [
      'On-site assessment and a clear scope before work starts',
      'Framing, drywall installation and patching',
      'Deck, fence and step repair or construction',
      'Door and window frame repair and installation',
      'Coordination of materials delivery and waste removal',
      'Final walkthrough with you before the job is closed',
    ],
  },
  {
    slug: 'painting',
    name: 'Painting',
    description:
      'Interior and exterior painting with careful preparation: furniture protected, surfaces repaired and primed, two even coats and crisp lines, then a tidy room.',
    included: [
      'Colour consultation and paint quantity estimate',
      'Furniture and floor protection with drop cloths and tape',
      'Surface prep: filling holes, sanding and priming',
      'Two coats on walls, ceilings, trim or exterior siding',
      'Cabinet, door and feature wall finishing',
      'Clean-up and touch-up pass before you sign off',
    ],
  },
  {
    slug: 'handyman',
    name: 'Handyman',
    description:
      'One pro for the to-do list: furniture assembly, mounting, small repairs and odd jobs done in a single visit by a handyman who brings the right tools.',
    included: [
      'Furniture and flat-pack assembly',
      'TV, shelf, mirror and artwork mounting',
      'Door, lock, hinge and cabinet adjustments',
      'Caulking, grouting and minor drywall repair',
      'Curtain rods, blinds and hardware installation',
      'Several small tasks combined in one booked visit',
    ],
  },
  {
    slug: 'cleaning',
    name: 'Cleaning',
    description:
      'Thorough home cleaning by vetted cleaners, from a regular refresh to a deep or move-out clean, with supplies brought and every room left spotless.',
    included: [
      'Kitchen clean: counters, appliances outside and inside the microwave',
      'Bathroom sanitising: toilet, shower, tub, sink and mirrors',
      'Dusting of surfaces, skirting boards and light fixtures',
      'Vacuuming and mopping of all floors',
      'Bins emptied and fresh liners fitted',
      'Cleaning supplies and equipment brought by the cleaner',
    ],
  },
];

/** Shown for any category without its own list (four generic items). */
export const genericIncluded = [
  'Professional service',
  'Quality workmanship',
  'Reliable and punctual',
  'Licensed and insured',
] as const;
