import { hireSchema, type HireInput, type ServiceRequestView } from '../../../../shared/schemas/job';
import { fieldErrors } from '../../../../shared/validation';
import type { Fix } from '../../domain/location/location';
import type { HireFormValues } from './hire-values';

/** The fields in the order they appear, so the first invalid one can take focus. */
export const hireFieldOrder = ['name', 'email', 'phoneNumber', 'service', 'location', 'description'] as const;
export type HireField = (typeof hireFieldOrder)[number];

export type HireFormResult = { ok: true; input: HireInput } | { ok: false; errors: Record<string, string> };

/**
 * Validates with the server's own schema. Coordinates go along only with a real fix; without
 * one the server has the typed address alone and distances stay unknown.
 */
export function validateHire(values: HireFormValues, workerId: string, fix: Fix | null): HireFormResult {
  const candidate = {
    workerId,
    ...values,
    ...(fix ? { clientLatitude: fix.latitude, clientLongitude: fix.longitude, gpsEnabled: true } : { gpsEnabled: false }),
  };
  const parsed = hireSchema.safeParse(candidate);
  return parsed.success ? { ok: true, input: parsed.data } : { ok: false, errors: fieldErrors(parsed.error) };
}

/** POST /api/hire answers `{ success, request }`; a bare view is read too. */
export function hiredRequest(body: unknown): ServiceRequestView | null {
  if (typeof body !== 'object' || body === null) return null;
  const inner = (body as { request?: unknown }).request;
  const view = (typeof inner === 'object' && inner !== null ? inner : body) as Partial<ServiceRequestView>;
  return typeof view.id === 'string' && typeof view.status === 'string' ? (view as ServiceRequestView) : null;
}

/**
 * A 400's field messages placed on the form: its own fields under themselves, anything else
 * (the worker id, coordinates, unknown fields) in the form-level message.
 */
export function fieldsForForm(fields: Record<string, string>): Record<string, string> {
  const placed: Record<string, string> = {};
  const other: string[] = [];
  for (const [key, message] of Object.entries(fields)) {
    if ((hireFieldOrder as readonly string[]).includes(key)) placed[key] = message;
    else other.push(message);
  }
  if (other.length > 0) placed._ = other.join(' ');
  return placed;
}
