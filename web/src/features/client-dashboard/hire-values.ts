import type { ServiceRequestView, WorkerListingView } from '../../../../shared/schemas/job';
import { requestServices, type RequestService } from '../../../../shared/domain/requests';

/**
 * The Hire form's values as it opens. Apart from the form's rules (hire-form.ts, which bring the
 * schema library): the dashboard computes these before the dialog's code is loaded.
 */
export interface HireFormValues {
  name: string;
  email: string;
  phoneNumber: string;
  service: string;
  location: string;
  description: string;
}

/**
 * Specialties are category names; only the categories with a service of the same name map onto
 * one. Construction (carpentry or an insurance repair?) and Handyman (anything) are left for the
 * customer to choose rather than guessed.
 */
export function serviceForSpecialties(specialties: readonly string[]): RequestService | '' {
  const first = specialties[0]?.trim().toLowerCase();
  if (!first) return '';
  return requestServices.find((service) => service.toLowerCase() === first) ?? '';
}

/**
 * The form as it opens: contact details from the customer's latest request (theirs, by the
 * cookie), the service from the worker's first specialty, the location from the panel.
 */
export function initialHireValues(
  worker: Pick<WorkerListingView, 'specialties'>,
  latest: Pick<ServiceRequestView, 'name' | 'email' | 'phoneNumber'> | undefined,
  location: string,
): HireFormValues {
  return {
    name: latest?.name ?? '',
    email: latest?.email ?? '',
    phoneNumber: latest?.phoneNumber ?? '',
    service: serviceForSpecialties(worker.specialties),
    location,
    description: '',
  };
}
