import { Link } from 'react-router';
import { externalLinks, paths } from '../../lib/paths';

const footerLink =
  'rounded text-slate-200 underline-offset-4 hover:text-white hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300';

export function Footer() {
  return (
    <footer className="border-t border-white/10 bg-slate-950/90 text-sm text-slate-300">
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-8 md:flex-row md:items-center md:justify-between">
        <p>
          <span className="font-semibold text-white">Fixly</span> — trusted home-service professionals, booked in seconds.
        </p>
        <ul className="flex flex-wrap items-center gap-x-6 gap-y-2">
          <li>
            <Link to={paths.contact} className={footerLink}>
              Contact Us
            </Link>
          </li>
          <li>
            <Link to={paths.track()} className={footerLink}>
              Track a Booking
            </Link>
          </li>
          <li>
            <a href={externalLinks.stripe} target="_blank" rel="noopener noreferrer" className={footerLink}>
              Powered by Stripe<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        </ul>
      </div>
    </footer>
  );
}
