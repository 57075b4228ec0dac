import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { readBody, sendJson as send } from './http-io';
import { makePrivateFolder, writePrivateFile } from './private-file';

/**
 * A local EventBridge Scheduler for the embedded runtime: just the one-time schedules the
 * marketplace uses (offer expiry, arrival grace). It speaks the REST-JSON wire format of
 * @aws-sdk/client-scheduler for CreateSchedule (POST /schedules/{Name}), GetSchedule
 * (GET /schedules/{Name}?groupName=) and DeleteSchedule (DELETE /schedules/{Name}?groupName=),
 * so functions/common/scheduler.ts runs unchanged against it. Signatures are not checked.
 *
 * Only `at(yyyy-mm-ddThh:mm:ss)` expressions in UTC, with a Lambda function ARN as the target, are
 * accepted; anything else is a ValidationException rather than a silently different behaviour.
 * Any group name is accepted (AWS would want the group created first; the CDK stack does that).
 *
 * Pending schedules live in `<dir>/schedules.json`, rewritten atomically (temp file + rename) on
 * every change. On start, every schedule already due (fell due while the emulator was stopped)
 * fires at once; the rest are armed with setTimeout, re-armed in steps for times beyond its
 * ~24.8-day cap.
 *
 * Delivery is AT MOST ONCE: as with ActionAfterCompletion DELETE, a schedule is removed from the
 * file before its target is invoked, so a crash mid-fire drops that firing instead of repeating it
 * on restart. (AWS delivers at least once; the timer handlers must be idempotent either way, and
 * they are written so that a late or missing firing is harmless.) Errors from `fire` are logged,
 * never thrown.
 */

export interface LocalScheduler {
  endpoint: string;
  close(): Promise<void>;
}

export interface FiredTarget {
  /** The last segment of Target.Arn (`arn:aws:lambda:region:acct:function:<name>`). */
  functionName: string;
  /** JSON.parse(Target.Input); undefined when there is no Input. */
  input: unknown;
  scheduleName: string;
}

export type FireTarget = (target: FiredTarget) => Promise<void>;

interface StoredSchedule {
  name: string;
  groupName: string;
  arn: string;
  expression: string;
  timezone: string;
  /** Epoch ms at which it fires. */
  at: number;
  target: Record<string, unknown> & { Arn: string; RoleArn: string; Input?: string };
  flexibleTimeWindow: unknown;
  actionAfterCompletion: string;
  description?: string;
  createdAt: number;
}

const FILE = 'schedules.json';
const REGION = 'us-east-1';
const ACCOUNT = '000000000000';
const NAME = /^[0-9a-zA-Z-_.]{1,64}$/;
const AT_EXPRESSION = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/;
const LAMBDA_ARN = /^arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:([a-zA-Z0-9-_]+)$/;
const MAX_BODY_BYTES = 256 * 1024;
/** setTimeout's largest delay (2^31 - 1 ms, ~24.8 days); longer waits are re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

class SchedulerError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const validation = (message: string) => new SchedulerError(400, 'ValidationException', message);

const key = (groupName: string, name: string) => `${groupName}/${name}`;

/** A local Scheduler on a free loopback port, persisting under `dir` and invoking `fire` for due schedules. */
export async function startLocalScheduler(dir: string, fire: FireTarget): Promise<LocalScheduler> {
  const root = path.resolve(dir);
  makePrivateFolder(root);
  const file = path.join(root, FILE);
  const schedules = load(file);
  const timers = new Map<string, NodeJS.Timeout>();
  let closed = false;

  const save = () => writePrivateFile(file, JSON.stringify([...schedules.values()], null, 2));

  const arm = (schedule: StoredSchedule) => {
    const id = key(schedule.groupName, schedule.name);
    clearTimeout(timers.get(id));
    const delay = Math.max(0, schedule.at - Date.now());
    const timer = setTimeout(() => {
      timers.delete(id);
      if (closed || schedules.get(id) !== schedule) return;
      if (schedule.at > Date.now()) return arm(schedule); // a far time: re-arm for the rest
      // At most once: gone from the file before the target runs.
      schedules.delete(id);
      save();
      void deliver(schedule, fire);
    }, Math.min(delay, MAX_TIMER_MS));
    timers.set(id, timer);
  };

  const disarm = (id: string) => {
    clearTimeout(timers.get(id));
    timers.delete(id);
  };

  const server: Server = createServer((req, res) => {
    readBody(req, MAX_BODY_BYTES, () => validation('The request body is too large'))
      .then((body) => route(req, body, schedules))
      .then((result) => {
        if (result.changed) {
          save();
          if (result.changed.kind === 'created') arm(result.changed.schedule);
          else disarm(result.changed.id);
        }
        send(res, 200, result.body);
      })
      .catch((error: unknown) => {
        if (!(error instanceof SchedulerError)) console.error('local Scheduler:', error);
        const e = error instanceof SchedulerError ? error : new SchedulerError(500, 'InternalServerException', String(error));
        res.setHeader('x-amzn-ErrorType', e.code);
        send(res, e.status, { Message: e.message });
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // Armed only now, after the last await: a caller that continues synchronously after this
  // resolves (e.g. to put the functions' environment in place) runs before any due schedule fires.
  for (const schedule of schedules.values()) arm(schedule);

  let closing: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        closed = true;
        for (const timer of timers.values()) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      })),
  };
}

async function deliver(schedule: StoredSchedule, fire: FireTarget): Promise<void> {
  try {
    const functionName = LAMBDA_ARN.exec(schedule.target.Arn)?.[1] ?? schedule.target.Arn.split(':').pop() ?? '';
    const input = schedule.target.Input === undefined ? undefined : (JSON.parse(schedule.target.Input) as unknown);
    await fire({ functionName, input, scheduleName: schedule.name });
  } catch (error) {
    console.error(`local Scheduler: schedule ${schedule.groupName}/${schedule.name} failed:`, error);
  }
}

function load(file: string): Map<string, StoredSchedule> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  const list = JSON.parse(text) as StoredSchedule[];
  return new Map(list.map((s) => [key(s.groupName, s.name), s]));
}

// ---------------------------------------------------------------------------------------------
// Routing

type Changed = { kind: 'created'; schedule: StoredSchedule } | { kind: 'deleted'; id: string };

interface Result {
  body: unknown;
  changed?: Changed;
}

function route(req: IncomingMessage, body: Buffer, schedules: Map<string, StoredSchedule>): Result {
  const url = new URL(req.url ?? '/', 'http://local');
  const m = /^\/schedules\/([^/]+)$/.exec(url.pathname);
  if (!m) throw new SchedulerError(404, 'ResourceNotFoundException', `The local Scheduler does not serve ${url.pathname}`);
  const name = decodeURIComponent(m[1]!);
  if (!NAME.test(name)) throw validation(`Schedule name must satisfy [0-9a-zA-Z-_.]+ and be at most 64 characters: ${name}`);

  switch (req.method) {
    case 'POST':
      return create(name, body, schedules);
    case 'GET': {
      const schedule = find(schedules, url.searchParams.get('groupName'), name);
      return { body: describe(schedule) };
    }
    case 'DELETE': {
      const schedule = find(schedules, url.searchParams.get('groupName'), name);
      const id = key(schedule.groupName, schedule.name);
      schedules.delete(id);
      return { body: {}, changed: { kind: 'deleted', id } };
    }
    default:
      throw new SchedulerError(405, 'ValidationException', `The local Scheduler does not implement ${req.method} on a schedule`);
  }
}

function find(schedules: Map<string, StoredSchedule>, groupName: string | null, name: string): StoredSchedule {
  const group = groupName || 'default';
  const schedule = schedules.get(key(group, name));
  if (!schedule) throw new SchedulerError(404, 'ResourceNotFoundException', `Schedule ${name} does not exist.`);
  return schedule;
}

function create(name: string, raw: Buffer, schedules: Map<string, StoredSchedule>): Result {
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    throw validation('The request body is not JSON');
  }
  const groupName = typeof input.GroupName === 'string' && input.GroupName ? input.GroupName : 'default';
  if (!NAME.test(groupName)) throw validation(`Invalid group name: ${groupName}`);

  const expression = String(input.ScheduleExpression ?? '');
  const at = AT_EXPRESSION.exec(expression);
  if (!at) throw validation(`The local Scheduler only supports one-time at(yyyy-mm-ddThh:mm:ss) expressions, not: ${expression}`);
  const timezone = (input.ScheduleExpressionTimezone as string | undefined) ?? 'UTC';
  if (timezone !== 'UTC') throw validation(`The local Scheduler only supports ScheduleExpressionTimezone UTC, not: ${timezone}`);
  const time = Date.parse(`${at[1]}Z`);
  if (Number.isNaN(time)) throw validation(`Invalid date in ${expression}`);

  const window = input.FlexibleTimeWindow as { Mode?: unknown } | undefined;
  if (!window || (window.Mode !== 'OFF' && window.Mode !== 'FLEXIBLE')) throw validation('FlexibleTimeWindow.Mode must be OFF or FLEXIBLE');
  const target = input.Target as StoredSchedule['target'] | undefined;
  if (!target || typeof target.Arn !== 'string' || typeof target.RoleArn !== 'string') {
    throw validation('Target.Arn and Target.RoleArn are required');
  }
  if (!LAMBDA_ARN.test(target.Arn)) throw validation(`The local Scheduler only invokes Lambda function ARNs, not: ${target.Arn}`);
  if (target.Input !== undefined) {
    try {
      JSON.parse(target.Input);
    } catch {
      throw validation('Target.Input must be JSON');
    }
  }
  if (input.State !== undefined && input.State !== 'ENABLED') throw validation('The local Scheduler only supports State ENABLED');

  const id = key(groupName, name);
  if (schedules.has(id)) throw new SchedulerError(409, 'ConflictException', `Schedule ${name} already exists.`);
  const schedule: StoredSchedule = {
    name,
    groupName,
    arn: `arn:aws:scheduler:${REGION}:${ACCOUNT}:schedule/${groupName}/${name}`,
    expression,
    timezone,
    at: time,
    target,
    flexibleTimeWindow: window,
    actionAfterCompletion: typeof input.ActionAfterCompletion === 'string' ? input.ActionAfterCompletion : 'NONE',
    description: typeof input.Description === 'string' ? input.Description : undefined,
    createdAt: Date.now(),
  };
  schedules.set(id, schedule);
  return { body: { ScheduleArn: schedule.arn }, changed: { kind: 'created', schedule } };
}

/** GetSchedule's answer; timestamps are epoch seconds on the REST-JSON wire. */
function describe(s: StoredSchedule) {
  return {
    Arn: s.arn,
    GroupName: s.groupName,
    Name: s.name,
    ScheduleExpression: s.expression,
    ScheduleExpressionTimezone: s.timezone,
    Description: s.description,
    State: 'ENABLED',
    CreationDate: s.createdAt / 1000,
    LastModificationDate: s.createdAt / 1000,
    Target: s.target,
    FlexibleTimeWindow: s.flexibleTimeWindow,
    ActionAfterCompletion: s.actionAfterCompletion,
  };
}

