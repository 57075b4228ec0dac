/** GET /api/config: the constants screens need, so every screen shows the same figures. */
export interface PublicConfig {
  platformFeePercent: number;
  workerSharePercent: number;
  arrivalGraceMinutes: number;
  supportEmail: string;
  currency: string;
  maxUploadBytes: number;
  /** Distances on screen: miles or kilometres (miles by default, as for US dollars). */
  distanceUnit: 'mi' | 'km';
  /** The locale money and numbers are written in (BCP 47), e.g. en-US. */
  locale: string;
}
