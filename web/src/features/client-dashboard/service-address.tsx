import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { SERVICE_ADDRESS_CHANGES_PER_DAY } from '../../../../shared/domain/service-areas';
import type { ServiceAddressView } from '../../../../shared/schemas/service-address';
import { LocationField } from '../../domain/request-form/location-field';
import type { KnownCoordinates } from '../../domain/request-form/request-form';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast-store';
import { api, errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { FormAlert } from '../../components/ui/form-alert';

/** The service address box as typed, with a position once one is known. */
export interface ServiceArea {
  text: string;
  coordinates: KnownCoordinates | null;
}

export const emptyServiceArea: ServiceArea = { text: '', coordinates: null };

/** The customer's saved service address (none for a visitor who never saved one). */
export function useSavedServiceAddress(): UseQueryResult<ServiceAddressView> {
  return useQuery<ServiceAddressView>({ queryKey: queryKeys.serviceAddress });
}

/** Whether Save would change anything: a placed address other than the one saved. */
export function canSave(area: ServiceArea, saved: ServiceAddressView['serviceAddress'] | undefined): boolean {
  const text = area.text.trim();
  return area.coordinates !== null && text !== '' && text !== saved?.address;
}

/**
 * The service address of the worker list: typed or found, then saved with Save address. Distances
 * are bands measured by the server from the saved one only, so the box on its own changes no
 * distance; moving the saved address is limited to a few times a day, and the server's refusal
 * says when it can move again.
 */
export function ServiceAddressField({
  area,
  onAreaChange,
  saved,
}: {
  area: ServiceArea;
  onAreaChange: (next: ServiceArea) => void;
  /** Saving replaces it, and with it the worker list's query key: the list is asked again. */
  saved: UseQueryResult<ServiceAddressView>;
}) {
  const queryClient = useQueryClient();
  const current = saved.data?.serviceAddress ?? null;
  const save = useMutation({
    mutationFn: async (input: { address: string; latitude: number; longitude: number }) =>
      api('PUT /api/customer/service-address', { body: input }),
    onSuccess: (view) => {
      queryClient.setQueryData(queryKeys.serviceAddress, view);
      toast({ title: 'Service address saved', description: 'Distances are now measured from it.' });
    },
  });

  const onSave = () => {
    if (!area.coordinates || save.isPending) return;
    save.mutate({ address: area.text.trim(), latitude: area.coordinates.latitude, longitude: area.coordinates.longitude });
  };

  const needsPlace = area.text.trim() !== '' && area.coordinates === null;
  const refusal = save.isError ? (errorMessage(save.error) ?? 'We could not save your service address. Please try again.') : null;

  return (
    <div className="grid gap-2">
      <LocationField
        id="worker-area"
        name="serviceAddress"
        label="Service address"
        value={area.text}
        inputRef={() => undefined}
        onType={(text) => {
          save.reset();
          onAreaChange({ text, coordinates: null });
        }}
        onLocate={(text, coordinates) => {
          save.reset();
          onAreaChange({ text, coordinates });
        }}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" size="sm" onClick={onSave} disabled={!canSave(area, current) || save.isPending}>
          <Save aria-hidden="true" className="size-4" />
          {save.isPending ? 'Saving...' : 'Save address'}
        </Button>
        <p role="status" className="text-sm text-slate-200">
          {current
            ? `Distances are measured from your saved address: ${current.address}.`
            : 'Save your service address to see how far each professional is.'}
        </p>
      </div>
      {needsPlace ? (
        <p className="text-sm text-slate-300">Choose the address from the suggestions or use your location, then save it.</p>
      ) : (
        <p className="text-sm text-slate-300">You can change it {SERVICE_ADDRESS_CHANGES_PER_DAY} times a day.</p>
      )}
      <FormAlert message={refusal} />
    </div>
  );
}
