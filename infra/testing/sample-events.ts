import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { routeExamples, type RouteExample } from '../../shared/route-examples';
import { routeKey, routes, type RouteDef, type RouteName } from '../../shared/routes';

/**
 * The sample event of every route (events/<name>.json), made from the manifest and the route's
 * example (shared/route-examples.ts): API Gateway's HTTP API payload 2.0, as a request from the
 * local site would arrive. `npm run events` writes them; infra/sample-events.test.ts fails when a
 * committed one differs from what this makes. Timers', socket routes', recurring jobs' and stream
 * consumers' events are not HTTP requests: those files are written by hand.
 */
const eventsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../events');

/** Every sample is sent at one fixed time, so the files never change between runs. */
const SENT_AT = { time: '22/Nov/2026:10:00:00 +0000', timeEpoch: Date.UTC(2026, 10, 22, 10) };
const HOST = 'localhost:3000';
const USER_AGENT = 'sample-event';

/** The path with each `{name}` filled in (URL-encoded, as a browser sends it). */
function filledPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template}: the example gives no value for {${name}}`);
    return encodeURIComponent(value);
  });
}

function queryString(query: Record<string, string>): string {
  return Object.entries(query)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
}

const asStrings = (values: object | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(values ?? {}).map(([name, value]) => [name, String(value)]));

/** The sample event of a route, as an object in the order the files have it. */
export function sampleEventOf(route: RouteDef): Record<string, unknown> {
  const example = (routeExamples[route.name as RouteName] ?? {}) as RouteExample<RouteName>;
  const params = asStrings(example.params);
  const query = asStrings(example.query);
  const rawPath = filledPath(route.path, params);
  const body = example.rawBody ?? (example.body === undefined ? undefined : JSON.stringify(example.body));
  const key = routeKey(route);
  return {
    version: '2.0',
    routeKey: key,
    rawPath,
    rawQueryString: queryString(query),
    headers: {
      host: HOST,
      'user-agent': USER_AGENT,
      ...example.headers,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(example.cookies?.length ? { cookies: example.cookies } : {}),
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: HOST,
      domainPrefix: 'localhost',
      http: { method: route.method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: USER_AGENT },
      requestId: `sample-${route.name}`,
      routeKey: key,
      stage: '$default',
      ...SENT_AT,
    },
    ...(Object.keys(params).length ? { pathParameters: params } : {}),
    ...(body !== undefined ? { body } : {}),
    isBase64Encoded: false,
  };
}

/** The file's text: two-space JSON and a final newline. */
export function sampleEventText(route: RouteDef): string {
  return `${JSON.stringify(sampleEventOf(route), null, 2)}\n`;
}

export function sampleEventFile(route: Pick<RouteDef, 'name'>): string {
  return path.join(eventsDir, `${route.name}.json`);
}

/** Writes every route's sample event; answers the names written. */
export function writeSampleEvents(): string[] {
  for (const route of routes as readonly RouteDef[]) writeFileSync(sampleEventFile(route), sampleEventText(route));
  return routes.map((r) => r.name);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const written = writeSampleEvents();
  console.log(`Wrote ${written.length} route sample events to events/.`);
}
