import { useQuery } from '@tanstack/react-query';
import type { Service } from '../../../../shared/schemas/service';

export const servicesKey = ['/api/services'] as const;

export function useServices() {
  return useQuery<Service[]>({ queryKey: servicesKey });
}

export function useService(slug: string | undefined) {
  return useQuery<Service>({ queryKey: ['/api/services', slug ?? ''], enabled: Boolean(slug) });
}
