import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger, requestContextOf, withRequestContext } from './logger';

/** Every line written to stdout and stderr, parsed. */
function captureLines() {
  const lines: Record<string, unknown>[] = [];
  const record = (line: unknown) => lines.push(JSON.parse(String(line)) as Record<string, unknown>);
  vi.spyOn(console, 'log').mockImplementation(record);
  vi.spyOn(console, 'error').mockImplementation(record);
  return lines;
}

describe('logger', () => {
  let lines: Record<string, unknown>[];
  beforeEach(() => {
    lines = captureLines();
  });
  afterEach(() => vi.restoreAllMocks());

  it('writes one JSON object per line with level, message, time and the fields given', () => {
    // Act
    logger.warn('Offer expired', { jobId: 'job_1', round: 2 });

    // Assess
    expect(lines).toEqual([{ level: 'warn', message: 'Offer expired', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), jobId: 'job_1', round: 2 }]);
  });

  it('adds the Lambda and API Gateway request ids to every line written inside a wrapped handler', async () => {
    // Prepare
    const handler = withRequestContext(async (_event: unknown, _context?: unknown) => {
      logger.info('first');
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.error('after an await');
      return 'done';
    });

    // Act
    const result = await handler({ requestContext: { requestId: 'api-1' } }, { awsRequestId: 'lambda-1' });

    // Assess
    expect(result).toBe('done');
    expect(lines.map((l) => [l.message, l.requestId, l.apiRequestId])).toEqual([
      ['first', 'lambda-1', 'api-1'],
      ['after an await', 'lambda-1', 'api-1'],
    ]);
  });

  it('keeps the ids of concurrent invocations apart (the local runtime runs them in one process)', async () => {
    // Prepare
    const handler = withRequestContext(async (event: { n: number; wait: number }, _context?: unknown) => {
      await new Promise((resolve) => setTimeout(resolve, event.wait));
      logger.info(`call ${event.n}`);
    });

    // Act
    await Promise.all([handler({ n: 1, wait: 20 }, { awsRequestId: 'r1' }), handler({ n: 2, wait: 1 }, { awsRequestId: 'r2' })]);

    // Assess
    expect(lines.map((l) => [l.message, l.requestId])).toEqual([
      ['call 2', 'r2'],
      ['call 1', 'r1'],
    ]);
    expect(lines.every((l) => !('apiRequestId' in l))).toBe(true);
  });

  it('writes no request ids outside an invocation, and lets explicit fields win', async () => {
    // Prepare
    const handler = withRequestContext(async (_event: unknown, _context?: unknown) => logger.info('inside', { requestId: 'explicit' }));

    // Act
    logger.info('outside');
    await handler({}, { awsRequestId: 'lambda-2' });

    // Assess
    expect(lines[0]).not.toHaveProperty('requestId');
    expect(lines[1]).toMatchObject({ message: 'inside', requestId: 'explicit' });
  });

  it('keeps the wrapped handler\'s own properties (the http() stack\'s bodySchema)', () => {
    // Prepare
    const original = Object.assign(async () => undefined, { bodySchema: 'schema' });

    // Act
    const wrapped = withRequestContext(original);

    // Assess
    expect(wrapped.bodySchema).toBe('schema');
  });

  it('reads only string ids from events and contexts of any shape', () => {
    // Act & Assess
    expect(requestContextOf(undefined, undefined)).toEqual({});
    expect(requestContextOf({ requestContext: { requestId: 7 } }, { awsRequestId: '' })).toEqual({});
    expect(requestContextOf({ requestContext: { requestId: 'a' } }, { awsRequestId: 'b' })).toEqual({ apiRequestId: 'a', requestId: 'b' });
  });
});
