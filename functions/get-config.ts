import { ARRIVAL_GRACE_MINUTES, CURRENCY, MAX_UPLOAD_BYTES } from '../shared/constants';
import { routeByName } from '../shared/routes';
import type { PublicConfig } from '../shared/schemas/config';
import { env } from './lib/env';
import { http } from './lib/http';

export function publicConfig(feePercent: number, supportEmail: string): PublicConfig {
  return {
    platformFeePercent: feePercent,
    workerSharePercent: 100 - feePercent,
    arrivalGraceMinutes: ARRIVAL_GRACE_MINUTES,
    supportEmail,
    currency: CURRENCY,
    maxUploadBytes: MAX_UPLOAD_BYTES,
  };
}

export const handler = http(routeByName('get-config'), async () =>
  publicConfig(env.PLATFORM_FEE_PERCENT, env.SUPPORT_EMAIL),
);
