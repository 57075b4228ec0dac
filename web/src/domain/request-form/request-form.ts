import { serviceRequestSchema, type ServiceRequestInput } from '../../../../shared/schemas/request';
import { validate } from '../../../../shared/validation';

export interface RequestFormValues {
  name: string;
  email: string;
  phoneNumber: string;
  service: string;
  location: string;
  description: string;
}

/** The fields in the order they appear, so the first invalid one takes focus. */
export const requestFieldOrder = ['name', 'email', 'phoneNumber', 'service', 'location', 'description'] as const;
export type RequestField = (typeof requestFieldOrder)[number];

/** Where the location box's coordinates came from: a GPS fix, or an address suggestion the customer chose. */
export interface KnownCoordinates {
  latitude: number;
  longitude: number;
  source: 'gps' | 'suggestion';
}

export function emptyRequestForm(service = ''): RequestFormValues {
  return { name: '', email: '', phoneNumber: '', service, location: '', description: '' };
}

/**
 * The POST /api/requests body. Without known coordinates it sends 0, 0 and gpsEnabled false, which
 * the server reads as "no fix"; gpsEnabled is true only for a GPS fix, not for a chosen address.
 */
export function buildRequestBody(values: RequestFormValues, coordinates: KnownCoordinates | null) {
  return {
    name: values.name,
    email: values.email,
    phoneNumber: values.phoneNumber,
    service: values.service,
    location: values.location,
    description: values.description,
    clientLatitude: coordinates?.latitude ?? 0,
    clientLongitude: coordinates?.longitude ?? 0,
    gpsEnabled: coordinates?.source === 'gps',
  };
}

export type RequestFormResult = { ok: true; input: ServiceRequestInput } | { ok: false; errors: Record<string, string> };

/** Validates with the server's own schema from shared/, so the form says what the server would. */
export function validateRequest(values: RequestFormValues, coordinates: KnownCoordinates | null): RequestFormResult {
  const result = validate(serviceRequestSchema, buildRequestBody(values, coordinates));
  return result.success ? { ok: true, input: result.data } : { ok: false, errors: result.fields };
}
