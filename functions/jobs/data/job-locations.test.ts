import { describe, expect, it } from 'vitest';
import { jobLocationsRepo } from './job-locations';
import { newId } from '../../common/ids';
import { watchTableWrites } from '../../testing/table-writes';

const INTERVAL_MS = 2000;
const start = Date.parse('2030-01-01T10:00:00.000Z');
const fixAt = (jobId: string, workerId: string, ms: number, lat = 37.77) =>
  jobLocationsRepo.keepLatest({ jobId, workerId, lat, lng: -122.42, accuracy: 8, at: new Date(start + ms).toISOString(), minIntervalMs: INTERVAL_MS });

describe('jobLocationsRepo.keepLatest', () => {
  it('writes once for each fix it keeps and never for one it drops, with no refused write', async () => {
    // Prepare
    const [jobId, pro, next] = [newId(), newId(), newId()];
    const writes = watchTableWrites();

    // Act: fixes 0.5 s and 1.999 s after a kept one are dropped; 2 s after, kept; a fix older than
    // the kept one is dropped; another pro's fix (the job reassigned) is kept whenever it comes
    const kept = [
      await fixAt(jobId, pro, 0, 1),
      await fixAt(jobId, pro, 500, 2),
      await fixAt(jobId, pro, 1999, 3),
      await fixAt(jobId, pro, 2000, 4),
      await fixAt(jobId, pro, 1000, 5),
      await fixAt(jobId, pro, 5000, 6),
      await fixAt(jobId, next, 5100, 7),
      await fixAt(jobId, next, 6000, 8),
    ];
    writes.stop();

    // Assess
    expect(kept).toEqual([true, false, false, true, false, true, true, false]);
    expect(writes.sent).toBe(4);
    expect(writes.refused).toBe(0);
    expect(await jobLocationsRepo.latest(jobId)).toMatchObject({ workerId: next, lat: 7, at: new Date(start + 5100).toISOString() });
  });

  it('keeps one of two fixes handled at once: the other is not kept, whichever way they interleave', async () => {
    // Prepare
    const [jobId, pro] = [newId(), newId()];
    await fixAt(jobId, pro, 0);
    const writes = watchTableWrites();

    // Act
    const kept = await Promise.all([fixAt(jobId, pro, 3000, 1), fixAt(jobId, pro, 3000, 2)]);
    writes.stop();

    // Assess: a write the other's read missed is refused by the write's own condition
    expect(kept.filter(Boolean)).toHaveLength(1);
    expect(writes.sent - writes.refused).toBe(1);
    expect((await jobLocationsRepo.latest(jobId))?.lat).toBe(kept[0] ? 1 : 2);
  });
});
