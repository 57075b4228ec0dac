import { describe, expect, it } from 'vitest';
import { MAX_EXPORT_ROWS } from '../../shared/schemas/admin';
import { handler } from './export-jobs';
import { batchWrite } from '../common/data/batch';
import { jobItem } from '../jobs/data/jobs';
import { csvCell } from '../common/csv';
import { newId } from '../common/ids';
import { asOwner } from '../testing/applications';
import { clockOn, privateDay, sentJob, withQuery } from '../testing/analytics';
import { testCategory } from '../testing/dispatch';
import { invoke, sampleEvent } from '../testing/events';

const exportOf = async (query: Record<string, string>) => invoke(handler, withQuery(await asOwner('export-jobs'), query));

describe('GET /api/admin/exports/jobs', () => {
  it('answers the range\'s jobs as a CSV file to save, a formula typed as a name made harmless text', async () => {
    // Prepare
    const day = privateDay();
    const at = clockOn(day);
    const category = testCategory();
    const plain = await sentJob(category, null, at, 'Dana Whitfield');
    const hostile = await sentJob(category, null, at, '=HYPERLINK("http://evil.example","Refund")');

    // Act
    const res = await exportOf({ from: day, to: day });

    // Assess
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="jobs-${day}-to-${day}.csv"`);
    const lines = (res.body as string).trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^Job id,Sent at,Kind,Trade,/);
    expect(lines).toHaveLength(3);
    expect(lines.some((line) => line.startsWith(`${csvCell(plain.id)},`) && line.includes(',Dana Whitfield,'))).toBe(true);
    expect(lines.find((line) => line.startsWith(`${csvCell(hostile.id)},`))).toContain(`,"'=HYPERLINK(""http://evil.example"",""Refund"")",`);
  });

  it('refuses a range holding more rows than one export takes, asking for a shorter one', async () => {
    // Prepare: one more job than the cap, written straight in (BatchWrite), on a day of their own
    const day = privateDay();
    const at = clockOn(day);
    const category = testCategory();
    const jobs = Array.from({ length: MAX_EXPORT_ROWS + 1 }, (_, i) =>
      jobItem({ id: newId(), kind: 'request', customerId: newId(), category, service: 'Plumbing', customerName: 'Bulk', customerPhone: '555-010-0142', address: '1 Test St', description: 'Bulk', createdAt: at(i % 600) }),
    );
    await batchWrite(jobs, []);

    // Act
    const res = await exportOf({ from: day, to: day });

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/More than 5000 jobs .* choose a shorter range/);
  });

  it('refuses a missing or malformed range', async () => {
    expect((await exportOf({ from: '2026-01-01' })).status).toBe(400);
    expect((await exportOf({ from: 'yesterday', to: '2026-01-01' })).status).toBe(400);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('export-jobs'))).status).toBe(401);
  });
});
