import { categories, type CategorySeed } from '../../../shared/categories';
import { serviceEntity, type ServiceItem } from '../../../shared/entities';

export type { ServiceItem } from '../../../shared/entities';

/**
 * Item builders with no client attached, so the local runtime and the CDK seed resource can
 * build exactly the items the repositories read.
 */
export function serviceItem(seed: CategorySeed, position: number): ServiceItem {
  return {
    ...serviceEntity.key(seed.slug),
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
