import type { z } from 'zod';

/**
 * One message per field (the first), keyed by its dotted path; "_" holds form-level messages such
 * as unknown fields. The server's 400 body and the web forms both use it, so they say the same.
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}
