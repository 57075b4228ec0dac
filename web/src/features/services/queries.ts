import { useQuery } from '@tanstack/react-query';
import type { Service } from '../../../../shared/schemas/service';
import { queryKeys } from '../../lib/query-keys';

export function useServices() {
  return useQuery<Service[]>({ queryKey: queryKeys.services });
}

export function useService(slug: string | undefined) {
  return useQuery<Service>({ queryKey: queryKeys.service(slug), enabled: Boolean(slug) });
}
