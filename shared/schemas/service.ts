/** A catalogue entry as GET /api/services answers it (its schema: ./views/people.ts). */
export type { Service } from './views/people';

/** A slug in a path: lower-case words joined by hyphens. Anything else cannot name a service. */
export const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
