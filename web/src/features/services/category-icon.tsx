import { Broom, Hammer, HardHat, Paintbrush, Wrench, Zap, type LucideIcon } from 'lucide-react';
import { cn } from '../../lib/cn';

/** One icon per category (plumbing wrench, electrical bolt, ...); anything else gets tools. */
const icons: Record<string, LucideIcon> = {
  plumbing: Wrench,
  electrical: Zap,
  construction: HardHat,
  painting: Paintbrush,
  cleaning: Broom,
};

export function CategoryIcon({ category, className }: { category: string; className?: string }) {
  const Icon = icons[category] ?? Hammer;
  return <Icon aria-hidden="true" className={cn('size-6', className)} />;
}
