import { randomBytes } from 'node:crypto';
import { GetScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import type { LatLng } from '../../shared/domain/geo';
import { dispatchIndex, geohashOf } from '../jobs/data/dispatch-index';
import { jobItem, jobsRepo, type JobItem, type NewJob } from '../jobs/data/jobs';
import { workersRepo, type WorkerItem } from '../workers/data/workers';
import { env } from '../common/env';
import { newId } from '../common/ids';
import { createTestWorker } from './workers';

/**
 * Dispatch fixtures. Every test file shares one table, so each test takes a category of its own
 * (dispatch partitions by category) and a place of its own: no test can offer another's job.
 */
export function testCategory(): string {
  return `test-${randomBytes(6).toString('hex')}`;
}

/** A random point away from the poles. */
export function testPlace(): LatLng {
  return { lat: Math.random() * 120 - 60, lng: Math.random() * 340 - 170 };
}

/** A point `km` kilometres north of `from`. */
export function north(from: LatLng, km: number): LatLng {
  return { lat: from.lat + km / 111.2, lng: from.lng };
}

/** An approved worker on call, clocked in, of `category`, at `at` (or with no location), in the dispatch index. */
export async function dispatchableWorker(category: string, at: LatLng | null, overrides: Partial<WorkerItem> = {}): Promise<WorkerItem> {
  const worker = await createTestWorker({
    isAvailable: true,
    isClockedIn: true,
    lastClockIn: new Date().toISOString(),
    categories: [category],
    ...(at ? { location: { ...at, accuracy: 10, geohash: geohashOf(at), at: new Date().toISOString() } } : {}),
    ...overrides,
  });
  await dispatchIndex.sync(worker);
  return (await workersRepo.findById(worker.id))!;
}

/** A job as created, not stored yet. */
export function newTestJob(category: string, at: LatLng | null, overrides: Partial<NewJob> = {}): JobItem {
  return jobItem({
    id: newId(),
    kind: 'request',
    customerId: newId(),
    category,
    service: 'Plumbing',
    customerName: 'Test Customer',
    customerPhone: '555-010-0142',
    customerEmail: 'customer@example.com',
    address: '1 Test Street',
    latitude: at?.lat ?? null,
    longitude: at?.lng ?? null,
    description: 'The kitchen tap drips all night.',
    createdAt: new Date().toISOString(),
    ...overrides,
  });
}

/** A stored job, not yet dispatched. */
export async function testJob(category: string, at: LatLng | null, overrides: Partial<NewJob> = {}): Promise<JobItem> {
  const job = newTestJob(category, at, overrides);
  await jobsRepo.create(job);
  return job;
}

/** A stored job offered to `workerIds` (expiring in `seconds`), as dispatch would leave it. */
export async function offeredJob(category: string, workerIds: readonly string[], seconds = 120, at: LatLng | null = null): Promise<JobItem> {
  const job = await testJob(category, at);
  const expiresAt = new Date(Date.now() + seconds * 1000).toISOString();
  const ok = await jobsRepo.addOffers(job, Object.fromEntries(workerIds.map((id) => [id, expiresAt])), new Date().toISOString());
  if (!ok) throw new Error('offeredJob: the fixture job changed while being offered');
  return (await jobsRepo.findById(job.id))!;
}

const scheduler = new SchedulerClient({ region: env.AWS_REGION, endpoint: env.SCHEDULER_ENDPOINT });

/** The schedule of that name in the local Scheduler, or undefined when there is none. */
export async function findSchedule(name: string) {
  try {
    return await scheduler.send(new GetScheduleCommand({ Name: name, GroupName: env.SCHEDULE_GROUP }));
  } catch (error) {
    if ((error as Error).name === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}
