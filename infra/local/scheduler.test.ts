import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  GetScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLocalScheduler, type FiredTarget, type LocalScheduler } from './scheduler';

const GROUP = 'marketplace';
const PREFIX = 'arn:aws:lambda:us-east-1:000000000000:function:';

let dir: string;
let running: LocalScheduler[] = [];
const clients: SchedulerClient[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'local-scheduler-'));
});
afterEach(async () => {
  await Promise.all(running.map((s) => s.close()));
  running = [];
  for (const c of clients.splice(0)) c.destroy();
  rmSync(dir, { recursive: true, force: true });
});

async function start() {
  const fired: FiredTarget[] = [];
  const fire = vi.fn(async (target: FiredTarget) => {
    fired.push(target);
  });
  const scheduler = await startLocalScheduler(dir, fire);
  running.push(scheduler);
  const client = new SchedulerClient({
    endpoint: scheduler.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  clients.push(client);
  return { scheduler, client, fired };
}

/** The whole second at least `ms` from now. */
const secondIn = (ms: number) => Math.ceil((Date.now() + ms) / 1000) * 1000;
const at = (time: number) => `at(${new Date(time).toISOString().slice(0, 19)})`;
const atIn = (ms: number) => at(secondIn(ms));

const create = (client: SchedulerClient, name: string, expression: string, input: unknown = { name }) =>
  client.send(
    new CreateScheduleCommand({
      Name: name,
      GroupName: GROUP,
      ScheduleExpression: expression,
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: `${PREFIX}offer-expiry`, RoleArn: 'arn:aws:iam::000000000000:role/local', Input: JSON.stringify(input) },
    }),
  );

const get = (client: SchedulerClient, name: string) => client.send(new GetScheduleCommand({ Name: name, GroupName: GROUP }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('local Scheduler', () => {
  it('fires a schedule once at its time with its input, then forgets it', async () => {
    const { client, fired } = await start();
    const { ScheduleArn } = await create(client, 'offer-expiry-job_1-1', atIn(1000), { jobId: 'job_1', round: 1 });
    expect(ScheduleArn).toBe('arn:aws:scheduler:us-east-1:000000000000:schedule/marketplace/offer-expiry-job_1-1');
    const got = await get(client, 'offer-expiry-job_1-1');
    expect(got.Target?.Arn).toBe(`${PREFIX}offer-expiry`);
    expect(got.ActionAfterCompletion).toBe('DELETE');
    expect(got.CreationDate).toBeInstanceOf(Date);
    expect(fired).toEqual([]);

    await vi.waitFor(() => expect(fired).toHaveLength(1), { timeout: 3000, interval: 50 });
    expect(fired[0]).toEqual({ functionName: 'offer-expiry', input: { jobId: 'job_1', round: 1 }, scheduleName: 'offer-expiry-job_1-1' });
    await expect(get(client, 'offer-expiry-job_1-1')).rejects.toBeInstanceOf(ResourceNotFoundException);
    await sleep(300);
    expect(fired).toHaveLength(1);
  });

  it('keeps its schedules file for its owner alone (0600)', async () => {
    // Prepare
    const { client } = await start();

    // Act
    await create(client, 'offer-expiry-job_p-1', atIn(60_000));

    // Assess
    expect(statSync(path.join(dir, 'schedules.json')).mode & 0o777).toBe(0o600);
  });

  it('never fires a cancelled schedule, and a second cancel is ResourceNotFound', async () => {
    const { client, fired } = await start();
    await create(client, 'arrival-grace-job_2', atIn(1000));
    await client.send(new DeleteScheduleCommand({ Name: 'arrival-grace-job_2', GroupName: GROUP }));
    await expect(client.send(new DeleteScheduleCommand({ Name: 'arrival-grace-job_2', GroupName: GROUP }))).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
    await sleep(2000);
    expect(fired).toEqual([]);
  });

  it('answers ConflictException to a second schedule of the same name in the group', async () => {
    const { client } = await start();
    await create(client, 'offer-expiry-job_3-1', atIn(60_000));
    const second = create(client, 'offer-expiry-job_3-1', atIn(60_000));
    await expect(second).rejects.toBeInstanceOf(ConflictException);
    await expect(second).rejects.toMatchObject({ $metadata: { httpStatusCode: 409 } });
  });

  it('answers ResourceNotFoundException for an unknown schedule', async () => {
    const { client } = await start();
    await expect(get(client, 'no-such-schedule')).rejects.toBeInstanceOf(ResourceNotFoundException);
  });

  it('refuses recurring expressions it does not emulate', async () => {
    const { client } = await start();
    await expect(create(client, 'recurring', 'rate(5 minutes)')).rejects.toMatchObject({ name: 'ValidationException' });
  });

  it('on restart fires, exactly once, a schedule that fell due while it was stopped', async () => {
    const first = await start();
    const due = secondIn(200);
    await create(first.client, 'offer-expiry-job_4-1', at(due), { jobId: 'job_4' });
    await create(first.client, 'later', atIn(60_000));
    await first.scheduler.close();
    await sleep(due - Date.now() + 200);
    expect(first.fired).toEqual([]);

    const second = await start();
    await vi.waitFor(() => expect(second.fired).toHaveLength(1), { timeout: 2000, interval: 50 });
    expect(second.fired[0]).toMatchObject({ functionName: 'offer-expiry', input: { jobId: 'job_4' } });
    // The one not yet due survived the restart; the fired one is gone.
    await expect(get(second.client, 'later')).resolves.toMatchObject({ Name: 'later' });
    await expect(get(second.client, 'offer-expiry-job_4-1')).rejects.toBeInstanceOf(ResourceNotFoundException);
    await second.scheduler.close();

    const third = await start();
    await sleep(300);
    expect(third.fired).toEqual([]);
  });

  it('logs, and does not throw, when the target fails', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const scheduler = await startLocalScheduler(dir, async () => {
      throw new Error('handler blew up');
    });
    running.push(scheduler);
    const client = new SchedulerClient({ endpoint: scheduler.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
    clients.push(client);
    await create(client, 'boom', atIn(0));
    await vi.waitFor(() => expect(errors).toHaveBeenCalled(), { timeout: 2000, interval: 50 });
    errors.mockRestore();
  });
});
