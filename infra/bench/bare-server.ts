import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localFunctionEnv } from '../local/stack';

/**
 * The load run's reference (npm run bench): a bare node:http server answering the read routes of
 * the load mix with the very DynamoDB reads our handlers make (the same repositories and the same
 * session lookups, against the same dynalite), and nothing else: no router, middleware, schema,
 * API Gateway event or error handling. Run as its own process: `DYNAMODB_ENDPOINT=… tsx bare-server.ts`
 * prints `listening <port>`.
 */
Object.assign(process.env, localFunctionEnv(process.env.BARE_DYNAMODB_ENDPOINT!, 'http://127.0.0.1:9'));
const { servicesRepo } = await import('../../functions/catalog/data/services');
const { bookingsRepo } = await import('../../functions/bookings/data/bookings');
const { jobsRepo } = await import('../../functions/jobs/data/jobs');
const { workersRepo } = await import('../../functions/workers/data/workers');
const { ownerJobs, workerAdmin } = await import('../../functions/workers/data/worker-admin');
const { ownerFrom, workerFrom } = await import('../../functions/common/auth/caller');
const { existingCustomer } = await import('../../functions/common/auth/customer');

type Caller = { cookies: string[]; headers: Record<string, string> };

async function worker(caller: Caller) {
  const session = await workerFrom(caller);
  return session ? workersRepo.findById(session.subjectId) : undefined;
}

const routes: [RegExp, (match: RegExpExecArray, caller: Caller) => Promise<unknown>][] = [
  [/^\/api\/services$/, () => servicesRepo.listAll()],
  [/^\/api\/services\/([^/]+)$/, (m) => servicesRepo.findBySlug(m[1]!)],
  [
    /^\/api\/bookings\/([^/]+)$/,
    async (m) => {
      const booking = await bookingsRepo.findById(m[1]!);
      return booking && { booking, job: booking.jobId ? await jobsRepo.findById(booking.jobId, false) : undefined };
    },
  ],
  [/^\/api\/requests$/, async (_m, caller) => {
    const customerId = await existingCustomer(caller);
    return customerId ? jobsRepo.listForCustomer(customerId) : [];
  }],
  [/^\/api\/jobs\/offers\/([^/]+)$/, async (_m, caller) => {
    const me = await worker(caller);
    return me ? jobsRepo.findMany(await jobsRepo.offeredJobIds(me.id)) : undefined;
  }],
  [/^\/api\/jobs\/worker\/([^/]+)$/, async (_m, caller) => {
    const me = await worker(caller);
    return me ? jobsRepo.listHeldBy(me.id) : undefined;
  }],
  [/^\/api\/admin\/jobs\/all$/, async (_m, caller) => ((await ownerFrom(caller)) ? ownerJobs.listAll() : undefined)],
  [/^\/api\/admin\/workers\/all$/, async (_m, caller) => ((await ownerFrom(caller)) ? workerAdmin.listAll() : undefined)],
];

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0]!;
  const caller: Caller = {
    cookies: (req.headers.cookie ?? '').split(';').map((c) => c.trim()).filter(Boolean),
    headers: { authorization: req.headers.authorization ?? '' },
  };
  for (const [pattern, read] of routes) {
    const match = pattern.exec(path);
    if (!match) continue;
    const body = await read(match, caller);
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? null));
    return;
  }
  res.writeHead(404).end();
}

const server = createServer((req, res) => {
  handle(req, res).catch(() => res.writeHead(500).end());
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
