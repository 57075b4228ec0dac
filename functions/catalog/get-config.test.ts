import { describe, expect, it } from 'vitest';
import { handler, publicConfig } from './get-config';
import { invoke, sampleEvent } from '../testing/events';

describe('GET /api/config', () => {
  it('serves the configured platform fee and the worker share that follows from it', async () => {
    const res = await invoke(handler, sampleEvent('get-config'));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      platformFeePercent: 10,
      workerSharePercent: 90,
      arrivalGraceMinutes: 45,
      supportEmail: 'support@fixly.app',
      currency: 'usd',
      maxUploadBytes: 10 * 1024 * 1024,
      distanceUnit: 'mi',
      locale: 'en-US',
    });
  });

  it('serves the configured distance unit and locale', () => {
    expect(publicConfig(10, 'help@example.com', { distanceUnit: 'km', locale: 'en-GB' })).toMatchObject({ distanceUnit: 'km', locale: 'en-GB' });
  });

  it('derives the worker share from any fee rate', () => {
    expect(publicConfig(15, 'help@example.com')).toMatchObject({ platformFeePercent: 15, workerSharePercent: 85 });
  });
});
