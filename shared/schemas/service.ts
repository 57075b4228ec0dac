/** A catalogue entry as GET /api/services answers it. */
export interface Service {
  id: string;
  slug: string;
  name: string;
  description: string;
  category: string;
  included: string[];
}

/** A slug in a path: lower-case words joined by hyphens. Anything else cannot name a service. */
export const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
