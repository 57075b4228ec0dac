import type { SVGProps } from 'react';

/**
 * The few icons the first paint needs, inline, so the landing page does not load the icon
 * library's runtime. Path data from Lucide (https://lucide.dev, ISC License), same 24x24 grid and
 * stroke style as the lucide-react icons used elsewhere.
 */
type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'>;

function icon(paths: readonly string[]) {
  return function InlineIcon(props: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        {...props}
      >
        {paths.map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
    );
  };
}

export const MenuIcon = icon(['M4 5h16', 'M4 12h16', 'M4 19h16']);
export const CloseIcon = icon(['M18 6 6 18', 'm6 6 12 12']);
export const CheckIcon = icon(['M20 6 9 17l-5-5']);
export const ZapIcon = icon([
  'M15.914 4a1.5 1.5 0 00-2.474-1.561l-9 9A1.5 1.5 0 005.5 14h4.002a.5.5 0 01.471.666L8.086 20a1.5 1.5 0 002.475 1.56l9-9A1.5 1.5 0 0018.5 10h-3.997a.5.5 0 01-.472-.667z',
]);
export const ShieldCheckIcon = icon([
  'M20 13c0 5-3.5 7.5-7.66 8.95a1 1 0 0 1-.67-.01C7.5 20.5 4 18 4 13V6a1 1 0 0 1 1-1c2 0 4.5-1.2 6.24-2.72a1.17 1.17 0 0 1 1.52 0C14.51 3.81 17 5 19 5a1 1 0 0 1 1 1z',
  'm9 12 2 2 4-4',
]);
export const SparklesIcon = icon([
  'M11.017 2.814a1 1 0 0 1 1.966 0l1.051 5.558a2 2 0 0 0 1.594 1.594l5.558 1.051a1 1 0 0 1 0 1.966l-5.558 1.051a2 2 0 0 0-1.594 1.594l-1.051 5.558a1 1 0 0 1-1.966 0l-1.051-5.558a2 2 0 0 0-1.594-1.594l-5.558-1.051a1 1 0 0 1 0-1.966l5.558-1.051a2 2 0 0 0 1.594-1.594z',
  'M20 2v4',
  'M22 4h-4',
  'M4 20a2 2 0 1 0 0-.01',
]);
