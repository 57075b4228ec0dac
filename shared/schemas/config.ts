import * as z from 'zod/mini';

/** GET /api/config: the constants screens need, so every screen shows the same figures. */
export const publicConfigSchema = z.object({
  platformFeePercent: z.number(),
  workerSharePercent: z.number(),
  arrivalGraceMinutes: z.number(),
  supportEmail: z.string(),
  currency: z.string(),
  maxUploadBytes: z.number(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
