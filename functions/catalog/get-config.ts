import { ARRIVAL_GRACE_MINUTES, CURRENCY, MAX_UPLOAD_BYTES } from '../../shared/constants';
import { routeByName } from '../../shared/routes';
import type { PublicConfig } from '../../shared/schemas/config';
import { env } from '../common/env';
import { http } from '../common/http';

export function publicConfig(feePercent: number, supportEmail: string, units: Pick<PublicConfig, 'distanceUnit' | 'locale'> = { distanceUnit: 'mi', locale: 'en-US' }): PublicConfig {
  return {
    platformFeePercent: feePercent,
    workerSharePercent: 100 - feePercent,
    arrivalGraceMinutes: ARRIVAL_GRACE_MINUTES,
    supportEmail,
    currency: CURRENCY,
    maxUploadBytes: MAX_UPLOAD_BYTES,
    ...units,
  };
}

export const handler = http(routeByName('get-config'), async () =>
  publicConfig(env.PLATFORM_FEE_PERCENT, env.SUPPORT_EMAIL, { distanceUnit: env.DISTANCE_UNIT, locale: env.LOCALE }),
);
