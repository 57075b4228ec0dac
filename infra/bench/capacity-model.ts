import type { MeterSnapshot, PartitionLoad } from '../local/dynamo-meter';
import { markdownTable } from './report';

/**
 * The capacity and cost model: what one booking's whole life measured on the local stack (the
 * table's units from the DynamoDB meter, HTTP calls, WebSocket frames, function runs, mail) comes
 * to at a scale, against DynamoDB's per-partition limits and AWS's list prices.
 */

/** DynamoDB's throughput limit of one partition, per second (the same on-demand and provisioned). */
export const PARTITION_LIMIT = { writeUnits: 1_000, readUnits: 3_000 } as const;
/** What "safe" means here: no partition above half its limit. */
export const SAFE_SHARE = 0.5;

const SECONDS_A_MONTH = 30 * 24 * 3600;
export const BASE_BOOKINGS_A_MONTH = 100_000;

export interface Scale {
  label: string;
  bookingsPerSecond: number;
  bookingsAMonth: number;
}

export const SCALES: readonly Scale[] = [
  { label: '1x (100,000 a month)', bookingsPerSecond: BASE_BOOKINGS_A_MONTH / SECONDS_A_MONTH, bookingsAMonth: BASE_BOOKINGS_A_MONTH },
  { label: '10x', bookingsPerSecond: (10 * BASE_BOOKINGS_A_MONTH) / SECONDS_A_MONTH, bookingsAMonth: 10 * BASE_BOOKINGS_A_MONTH },
  { label: '100x', bookingsPerSecond: (100 * BASE_BOOKINGS_A_MONTH) / SECONDS_A_MONTH, bookingsAMonth: 100 * BASE_BOOKINGS_A_MONTH },
  // The burst is a rate, not a month: its month column is left empty.
  { label: 'burst (1,000 a minute)', bookingsPerSecond: 1_000 / 60, bookingsAMonth: 0 },
];

/**
 * AWS's list prices in us-east-1 (on-demand DynamoDB, ARM Lambda, HTTP and WebSocket APIs, SES,
 * CloudWatch Logs), as published on each service's pricing page. Lambda's duration cannot be measured
 * locally: its line takes `LAMBDA_MS` at 256 MB, the average the functions' REPORT lines show.
 */
export const PRICES = {
  dynamoWriteUnit: 0.625 / 1e6,
  dynamoReadUnit: 0.125 / 1e6,
  lambdaRequest: 0.2 / 1e6,
  lambdaGbSecond: 0.0000133334,
  httpApiRequest: 1.0 / 1e6,
  websocketMessage: 1.0 / 1e6,
  websocketConnectionMinute: 0.25 / 1e6,
  sesMail: 0.1 / 1000,
  logsGb: 0.5,
} as const;
export const LAMBDA_MS = 60;
export const LAMBDA_GB = 0.25;
/** One JSON line or two per run plus Lambda's START/END/REPORT and the access log's line. */
export const LOG_BYTES_PER_RUN = 700;

/** What one booking does, measured (per booking, fixes scaled to a booking's count of them). */
export interface PerBooking {
  readUnits: number;
  writeUnits: number;
  httpCalls: number;
  websocketFrames: number;
  /** Minutes a socket is open (the pro's and the customer's). */
  connectionMinutes: number;
  functionRuns: number;
  mails: number;
  /** Units per booking on each partition that many bookings share (an index, a counter). */
  shared: Record<string, PartitionLoad>;
  /** The largest units per booking any one booking's own partition takes (its job, its customer). */
  ownLargest: { partition: string; load: PartitionLoad } | undefined;
}

/**
 * A partition that belongs to one thing rather than to every booking: a segment of its key is an id
 * (ours are 22 characters, a socket's connection id 16, both random: digits or mixed case) or an
 * address.
 */
export function isOwnPartition(partition: string): boolean {
  return partition
    .split(/[#:]/)
    .some((segment) => segment.includes('@') || (/^[A-Za-z0-9_+/=-]{12,}$/.test(segment) && (/\d/.test(segment) || (/[a-z]/.test(segment) && /[A-Z]/.test(segment)))));
}

/** Per booking: the lifecycle's snapshot over `bookings`, plus the fixes' snapshot per fix times `fixesPerBooking`. */
export function perBooking(
  lifecycle: MeterSnapshot,
  fixes: MeterSnapshot,
  counts: {
    bookings: number;
    /** Fixes sent in the fix phase, all bookings together. */
    fixesSent: number;
    fixesPerBooking: number;
    httpCalls: number;
    /** Frames sent to the API (each one function run) and received from it, outside the fix phase. */
    framesIn: number;
    framesOut: number;
    /** The same in the fix phase. */
    fixFramesIn: number;
    fixFramesOut: number;
    connectionMinutes: number;
    /** Runs of the stream readers and timers (each record counted as a run: batching only lowers it). */
    otherRuns: number;
  },
): PerBooking {
  const perFix = counts.fixesSent ? counts.fixesPerBooking / counts.fixesSent : 0;
  const b = counts.bookings;
  const shared: Record<string, PartitionLoad> = {};
  let ownLargest: PerBooking['ownLargest'];
  const add = (partitions: Record<string, PartitionLoad>, factor: number) => {
    for (const [partition, load] of Object.entries(partitions)) {
      const scaled = { writeUnits: load.writeUnits * factor, readUnits: load.readUnits * factor };
      if (isOwnPartition(partition)) {
        // One booking's own partition: its units are that booking's, not shared by the rest.
        const own = { writeUnits: load.writeUnits * (factor * b), readUnits: load.readUnits * (factor * b) };
        if (!ownLargest || own.writeUnits > ownLargest.load.writeUnits) ownLargest = { partition, load: own };
        continue;
      }
      const sum = (shared[partition] ??= { writeUnits: 0, readUnits: 0 });
      sum.writeUnits += scaled.writeUnits;
      sum.readUnits += scaled.readUnits;
    }
  };
  add(lifecycle.partitions, 1 / b);
  add(fixes.partitions, perFix);
  return {
    readUnits: lifecycle.readUnits / b + fixes.readUnits * perFix,
    writeUnits: lifecycle.writeUnits / b + fixes.writeUnits * perFix,
    httpCalls: counts.httpCalls / b,
    websocketFrames: (counts.framesIn + counts.framesOut) / b + (counts.fixFramesIn + counts.fixFramesOut) * perFix,
    connectionMinutes: counts.connectionMinutes,
    functionRuns: (counts.httpCalls + counts.framesIn + counts.otherRuns) / b + counts.fixFramesIn * perFix,
    mails: (lifecycle.created['outbound-mail'] ?? 0) / b,
    shared,
    ownLargest,
  };
}

export interface HotPartition {
  scale: Scale;
  partition: string;
  writeUnitsPerSecond: number;
  readUnitsPerSecond: number;
  /** The larger of its write and read share of the partition's limit. */
  share: number;
}

/** The partition nearest its limit at each scale: a shared one's rate grows with the bookings. */
export function hottest(model: PerBooking, scales: readonly Scale[] = SCALES): HotPartition[] {
  return scales.map((scale) => {
    let hot: HotPartition = { scale, partition: '(none)', writeUnitsPerSecond: 0, readUnitsPerSecond: 0, share: 0 };
    for (const [partition, load] of Object.entries(model.shared)) {
      const w = load.writeUnits * scale.bookingsPerSecond;
      const r = load.readUnits * scale.bookingsPerSecond;
      const share = Math.max(w / PARTITION_LIMIT.writeUnits, r / PARTITION_LIMIT.readUnits);
      if (share > hot.share) hot = { scale, partition, writeUnitsPerSecond: w, readUnitsPerSecond: r, share };
    }
    return hot;
  });
}

export interface CostLine {
  line: string;
  /** Dollars a month at each scale of SCALES with a month (the burst has none). */
  dollars: number[];
}

/** The monthly bill by line at each monthly scale, from the measured counts and the list prices. */
export function monthlyCost(model: PerBooking, scales: readonly Scale[] = SCALES.filter((s) => s.bookingsAMonth > 0)): CostLine[] {
  const at = (perBookingDollars: number) => scales.map((s) => perBookingDollars * s.bookingsAMonth);
  return [
    { line: 'DynamoDB writes', dollars: at(model.writeUnits * PRICES.dynamoWriteUnit) },
    { line: 'DynamoDB reads', dollars: at(model.readUnits * PRICES.dynamoReadUnit) },
    { line: 'Lambda (requests and duration)', dollars: at(model.functionRuns * (PRICES.lambdaRequest + (LAMBDA_MS / 1000) * LAMBDA_GB * PRICES.lambdaGbSecond)) },
    { line: 'API Gateway HTTP API', dollars: at(model.httpCalls * PRICES.httpApiRequest) },
    { line: 'API Gateway WebSocket (messages, connection minutes)', dollars: at(model.websocketFrames * PRICES.websocketMessage + model.connectionMinutes * PRICES.websocketConnectionMinute) },
    { line: 'SES mail', dollars: at(model.mails * PRICES.sesMail) },
    { line: 'CloudWatch Logs ingestion', dollars: at(((model.functionRuns * LOG_BYTES_PER_RUN) / 1024 ** 3) * PRICES.logsGb) },
  ];
}

const money = (d: number) => (d >= 100 ? `$${Math.round(d).toLocaleString('en-US')}` : `$${d.toFixed(2)}`);
const num = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

/** The three tables the bench prints and writes into its README. */
export function capacityTables(model: PerBooking): { perBooking: string; partitions: string; cost: string; costPerThousand: number; worstShare: number } {
  const perBookingTable = markdownTable(
    [{ title: 'per booking (measured)' }, { title: 'amount', align: 'right' }],
    [
      ['DynamoDB read units', num(model.readUnits)],
      ['DynamoDB write units', num(model.writeUnits)],
      ['HTTP API calls', num(model.httpCalls)],
      ['WebSocket frames (in and out)', num(model.websocketFrames, 0)],
      ['Lambda invocations', num(model.functionRuns, 0)],
      ['mail sent', num(model.mails)],
    ],
  );
  const hot = hottest(model);
  const partitions = markdownTable(
    [{ title: 'scale' }, { title: 'hottest shared partition' }, { title: 'write units/s', align: 'right' }, { title: 'read units/s', align: 'right' }, { title: 'of its limit', align: 'right' }],
    hot.map((h) => [h.scale.label, `\`${h.partition}\``, num(h.writeUnitsPerSecond, 2), num(h.readUnitsPerSecond, 2), `${(h.share * 100).toFixed(1)}%`]),
  );
  const monthly = SCALES.filter((s) => s.bookingsAMonth > 0);
  const lines = monthlyCost(model, monthly);
  const totals = monthly.map((_, i) => lines.reduce((sum, l) => sum + l.dollars[i]!, 0));
  const cost = markdownTable(
    [{ title: 'monthly' }, ...monthly.map((s) => ({ title: s.label, align: 'right' as const }))],
    [...lines.map((l) => [l.line, ...l.dollars.map(money)]), ['**total (usage lines)**', ...totals.map((t) => `**${money(t)}**`)]],
  );
  return { perBooking: perBookingTable, partitions, cost, costPerThousand: (totals[0]! / monthly[0]!.bookingsAMonth) * 1000, worstShare: Math.max(...hot.map((h) => h.share)) };
}
