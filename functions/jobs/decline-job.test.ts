import { describe, expect, it } from 'vitest';
import { handler } from './decline-job';
import { jobsRepo } from './data/jobs';
import { timerNames } from './dispatch';
import { dispatchableWorker, findSchedule, north, testCategory, testJob, testPlace } from '../testing/dispatch';
import { offerNext } from './dispatch';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('decline-job');
const decline = async (workerId: string, jobId: string) =>
  invoke(handler, withBearer(withPath(withBody(sample, { workerId }), { jobId }), await workerToken(workerId)));

describe('POST /api/jobs/decline/{jobId}', () => {
  it('withdraws the offer and offers the job to the next nearest worker at once', async () => {
    // Prepare: four workers, three offered, the fourth waiting.
    const [category, place] = [testCategory(), testPlace()];
    const workers = [];
    for (const km of [1, 2, 3, 4]) workers.push(await dispatchableWorker(category, north(place, km)));
    const job = await testJob(category, place);
    await offerNext(job.id);

    // Act
    const res = await decline(workers[0]!.id, job.id);

    // Assess
    expect(res.status).toBe(204);
    const after = await jobsRepo.findById(job.id);
    expect(Object.keys(after!.offers).sort()).toEqual([workers[1]!.id, workers[2]!.id, workers[3]!.id].sort());
    expect(await findSchedule(timerNames.offer(job.id, workers[0]!.id))).toBeUndefined();
  });

  it('answers 404 to a second pass and to a worker never offered the job', async () => {
    const [category, place] = [testCategory(), testPlace()];
    const offered = await dispatchableWorker(category, place);
    const job = await testJob(category, place);
    await offerNext(job.id);
    const stranger = await dispatchableWorker(testCategory(), null);
    await decline(offered.id, job.id);

    const again = await decline(offered.id, job.id);
    const other = await decline(stranger.id, job.id);

    expect(again.status).toBe(404);
    expect(other.status).toBe(404);
  });
});
