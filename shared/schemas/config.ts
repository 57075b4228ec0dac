/** GET /api/config: the constants screens need, so every screen shows the same figures. */
export interface PublicConfig {
  platformFeePercent: number;
  workerSharePercent: number;
  arrivalGraceMinutes: number;
  supportEmail: string;
  currency: string;
  maxUploadBytes: number;
}
