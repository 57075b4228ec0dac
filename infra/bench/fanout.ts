import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { frame, rooms } from '../../shared/realtime';
import { ensureTable, localDynamoClient, startDynalite } from '../local/dynamo';
import { localFunctionEnv, LOCAL_TABLE } from '../local/stack';
import { startLocalWebSocketApi, type SocketHandler } from '../local/websocket';
import { markdownTable, ms, verdict } from './report';
import { median, percentile } from './timing';

/**
 * /ws fan-out: one event to every connection of a busy job room, as functions/realtime/realtime.ts
 * publish() sends it (all posts at once, stale connections pruned in the same pass) against the
 * same fan-out done one connection at a time, in the same run. Real WebSocket clients on the local
 * /ws (infra/local/websocket.ts), memberships written by connectionsRepo into an in-memory dynalite,
 * a few clients closed without their $disconnect having cleaned up, so @connections answers 410 for
 * them. Loopback only. Delivery time per client: from the call to the frame arriving at that client.
 */
export interface FanoutMode {
  /** Live clients that received the frame, worst repetition. */
  delivered: number;
  /** What the call reported pruned, and members left in the room afterwards, worst repetition. */
  pruned: number;
  membersAfter: number;
  /** Medians over the repetitions of each repetition's p50 / p99 per-client delivery time, and of the whole call. */
  p50Ms: number;
  p99Ms: number;
  callMs: number;
}

export interface FanoutResult {
  clients: number;
  stale: number;
  runs: number;
  /** The modelled @connections round trip (0: loopback as it is). */
  latencyMs: number;
  publish: FanoutMode;
  sequential: FanoutMode;
}

export const FANOUT_CLIENTS = 200;
export const FANOUT_STALE = 10;
export const FANOUT_RUNS = 9;
/** publish()'s p99 per client must be at most this fraction of the one-at-a-time p99. */
export const MAX_FANOUT_RATIO = 0.2;
/**
 * Each @connections call answered this much later: the order of API Gateway's round trip from a
 * Lambda in the same region (an assumption, not measured here; real ones are 10 to 30 ms). The
 * target is judged with it, since on loopback a post costs only CPU, and on one machine concurrency
 * cannot hide CPU; the loopback figures are printed beside it.
 */
export const MODELLED_LATENCY_MS = 10;
const ROOM = rooms.job('bench-fanout');


/** The measurement itself; needs a process of its own, since the functions read their environment once, at import. */
export async function measureFanout(latencyMs = 0, clients = FANOUT_CLIENTS, stale = FANOUT_STALE, runs = FANOUT_RUNS): Promise<FanoutResult> {
  const dynamo = await startDynalite();
  const raw = localDynamoClient(dynamo.endpoint);
  await ensureTable(raw, LOCAL_TABLE);
  raw.destroy();

  const idsByClient = new Map<number, string>();
  // The room's members are written as connect-socket writes them; $disconnect does nothing, as when
  // API Gateway's best-effort $disconnect never came: only a 410 from @connections tells.
  const handlers: Record<string, SocketHandler> = {
    $connect: async (event) => {
      const { connectionsRepo } = await import('../../functions/realtime/data/connections');
      const id = event.requestContext.connectionId;
      await connectionsRepo.open(id, {}, new Date().toISOString());
      await connectionsRepo.join(id, ROOM);
      idsByClient.set(Number(event.queryStringParameters?.client), id);
      return { statusCode: 200 };
    },
    $disconnect: async () => undefined,
    $default: async () => undefined,
  };
  const api = await startLocalWebSocketApi({ handlerFor: async (routeKey) => handlers[routeKey]!, managementLatencyMs: latencyMs });
  const server = createServer((_req, res) => res.writeHead(404).end());
  api.attach(server, '/ws');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
  Object.assign(process.env, localFunctionEnv(dynamo.endpoint, 'http://127.0.0.1:9', undefined, undefined, api.endpoint));
  const { publish, sendTo } = await import('../../functions/realtime/realtime');
  const { connectionsRepo } = await import('../../functions/realtime/data/connections');

  const sockets: WebSocket[] = [];
  try {
    /** Arrival time per live client of the frame carrying the current marker. */
    let expecting: { marker: string; arrivals: Map<number, number>; want: number; done: () => void } | undefined;
    const open = (i: number) =>
      new Promise<WebSocket>((resolve, reject) => {
        const socket = new WebSocket(`${url}?client=${i}`);
        socket.once('open', () => resolve(socket));
        socket.once('error', reject);
        socket.on('message', (data) => {
          const at = performance.now();
          const e = expecting;
          if (!e || !data.toString().includes(e.marker)) return;
          e.arrivals.set(i, at);
          if (e.arrivals.size === e.want) e.done();
        });
      });
    for (let i = 0; i < clients; i += 25) {
      sockets.push(...(await Promise.all(Array.from({ length: Math.min(25, clients - i) }, (_, k) => open(i + k)))));
    }
    const staleIds = Array.from({ length: stale }, (_, k) => idsByClient.get(clients - 1 - k)!);
    await Promise.all(sockets.slice(clients - stale).map((s) => new Promise((resolve) => (s.once('close', resolve), s.close()))));
    const live = clients - stale;

    const once = async (mode: 'publish' | 'sequential', marker: string) => {
      // The previous pass pruned them: the stale memberships come back as they were.
      for (const id of staleIds) {
        await connectionsRepo.open(id, {}, new Date().toISOString());
        await connectionsRepo.join(id, ROOM);
      }
      const arrivals = new Map<number, number>();
      const all = new Promise<void>((done) => (expecting = { marker, arrivals, want: live, done }));
      const data = { requestId: marker, message: 'bench' };
      const start = performance.now();
      let outcome = { delivered: 0, pruned: 0 };
      if (mode === 'publish') outcome = await publish(ROOM, 'job_reassigned', data);
      else {
        const text = frame('job_reassigned', data);
        for (const id of await connectionsRepo.members(ROOM)) {
          if (await sendTo(id, text)) outcome.delivered++;
          else outcome.pruned++;
        }
      }
      const callMs = performance.now() - start;
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      expecting = undefined;
      const latencies = [...arrivals.values()].map((t) => t - start);
      return {
        delivered: arrivals.size,
        pruned: outcome.pruned,
        membersAfter: (await connectionsRepo.members(ROOM)).length,
        p50: latencies.length ? percentile(latencies, 50) : Number.NaN,
        p99: latencies.length ? percentile(latencies, 99) : Number.NaN,
        callMs,
      };
    };

    // Unrecorded: the first calls create the clients and open their connection pools.
    await once('publish', 'warm-publish');
    await once('sequential', 'warm-sequential');
    const samples = { publish: [] as Awaited<ReturnType<typeof once>>[], sequential: [] as Awaited<ReturnType<typeof once>>[] };
    for (let run = 0; run < runs; run++) {
      // Alternate which goes first, so neither always follows the other.
      const order = run % 2 === 0 ? (['publish', 'sequential'] as const) : (['sequential', 'publish'] as const);
      for (const mode of order) samples[mode].push(await once(mode, `${mode}-${run}`));
    }
    const summarise = (s: Awaited<ReturnType<typeof once>>[]): FanoutMode => ({
      delivered: Math.min(...s.map((x) => x.delivered)),
      pruned: Math.min(...s.map((x) => x.pruned)),
      membersAfter: Math.max(...s.map((x) => x.membersAfter)),
      p50Ms: median(s.map((x) => x.p50)),
      p99Ms: median(s.map((x) => x.p99)),
      callMs: median(s.map((x) => x.callMs)),
    });
    return { clients, stale, runs, latencyMs, publish: summarise(samples.publish), sequential: summarise(samples.sequential) };
  } finally {
    for (const s of sockets) s.terminate();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await api.close();
    await dynamo.close();
  }
}

/** measureFanout() in a fresh Node process (this file, run by the same tsx), its result read back. */
export function runFanout(latencyMs = 0): Promise<FanoutResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      env: { ...process.env, FANOUT_CHILD: '1', FANOUT_LATENCY_MS: String(latencyMs) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`the fan-out measurement exited with ${code}`));
      try {
        resolve(JSON.parse(last) as FanoutResult);
      } catch {
        reject(new Error(`the fan-out measurement printed no result: ${out.slice(-500)}`));
      }
    });
  });
}

/** The loopback result (judged against the targets) and the modelled-latency one (for information). */
export function fanoutTable(loopback: FanoutResult, modelled?: FanoutResult): string {
  const live = loopback.clients - loopback.stale;
  const ratio = (r: FanoutResult) => r.publish.p99Ms / r.sequential.p99Ms;
  const rows = (r: FanoutResult) => {
    const where = r.latencyMs ? `${r.latencyMs} ms round trip (modelled)` : 'loopback';
    const row = (how: string, m: FanoutMode) => [
      `${how}, ${where}`,
      `${m.delivered}/${live}`,
      `${m.pruned}/${r.stale} (${m.membersAfter} left)`,
      ms(m.p50Ms),
      ms(m.p99Ms),
      ms(m.callMs),
    ];
    return [row('publish(): all at once', r.publish), row('one connection at a time', r.sequential)];
  };
  const allDelivered = [loopback, modelled].every((r) => !r || (r.publish.delivered === live && r.sequential.delivered === live));
  const onePass = [loopback, modelled].every((r) => !r || (r.publish.pruned === r.stale && r.publish.membersAfter === live));
  return [
    markdownTable(
      [
        { title: `Fan-out: ${loopback.clients} clients in one room, ${loopback.stale} stale` },
        { title: 'Delivered', align: 'right' },
        { title: 'Pruned (members after)', align: 'right' },
        { title: 'p50 per client', align: 'right' },
        { title: 'p99 per client', align: 'right' },
        { title: 'Whole call', align: 'right' },
      ],
      [...rows(loopback), ...(modelled ? rows(modelled) : [])],
    ),
    '',
    modelled
      ? `p99 ratio with a ${modelled.latencyMs} ms @connections round trip (all at once ÷ one at a time): ${ratio(modelled).toFixed(2)}, ` +
        `target ≤ ${MAX_FANOUT_RATIO}: ${verdict(ratio(modelled) <= MAX_FANOUT_RATIO)}; on loopback ${ratio(loopback).toFixed(2)} (for information: ` +
        'there every step of a post, the SDK call, the local @connections endpoint and the receiving client, is CPU on the same two ' +
        'cores, so sending all at once can only overlap the little time a post waits, never the work; the ratio measures what ' +
        'concurrency buys only once a post has a round trip to wait for, as it has in the cloud).'
      : `p99 ratio on loopback (all at once ÷ one at a time): ${ratio(loopback).toFixed(2)}, target ≤ ${MAX_FANOUT_RATIO}: ${verdict(ratio(loopback) <= MAX_FANOUT_RATIO)}.`,
    `Every live client received it: ${verdict(allDelivered)}; stale connections pruned in one pass: ${verdict(onePass)}.`,
    '',
    `Real WebSocket clients on the local /ws, frames posted through @aws-sdk/client-apigatewaymanagementapi to the local ` +
      `@connections endpoint, memberships in an in-memory dynalite (one Query for the room), all in one process as ` +
      `under npm start; medians over ${loopback.runs} repetitions of each, interleaved, after one unrecorded round; ` +
      'the stale memberships are put back before every repetition. Delivery time: from the call to the frame reaching ' +
      'that client; counts from the worst repetition. The modelled rows answer each @connections call later by the ' +
      'round trip given (delivery itself is not delayed), as API Gateway answers a Lambda over the network.',
  ].join('\n');
}

if (process.env.FANOUT_CHILD === '1') {
  const result = await measureFanout(Number(process.env.FANOUT_LATENCY_MS ?? 0));
  console.log(JSON.stringify(result));
}
