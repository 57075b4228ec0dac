import * as z from 'zod/mini';

export const serviceSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  included: z.array(z.string()),
});
export type Service = z.infer<typeof serviceSchema>;

export const serviceListSchema = z.array(serviceSchema);

/** A slug in a path: lower-case words joined by hyphens. Anything else cannot name a service. */
export const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
