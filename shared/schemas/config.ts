/** GET /api/config: the constants screens need, so every screen shows the same figures (its schema: ./views/people.ts). */
export type { PublicConfig } from './views/people';
