import { categories, type CategorySeed } from '../../../shared/categories';
import { keys } from '../../../shared/table';

/**
 * Item builders with no client attached, so the local runtime and the CDK seed resource can
 * build exactly the items the repositories read.
 */
export interface ServiceItem {
  pk: string;
  sk: string;
  entity: 'service';
  id: string;
  slug: string;
  name: string;
  description: string;
  category: string;
  included: string[];
  position: number;
}

export function serviceItem(seed: CategorySeed, position: number): ServiceItem {
  return {
    ...keys.service(seed.slug),
    entity: 'service',
    id: seed.slug,
    slug: seed.slug,
    name: seed.name,
    description: seed.description,
    category: seed.slug,
    included: [...seed.included],
    position,
  };
}

export function catalogItems(): ServiceItem[] {
  return categories.map(serviceItem);
}
