import { describe, expect, it } from 'vitest';
import { parseSavedJobs } from './offline-jobs';

describe("the worker's saved jobs", () => {
  const saved = { workerId: 'w-1', savedAt: '2026-11-22T14:05:00.000Z', items: [{ id: 'job-1' }] };

  it('reads back the copy saved for this worker', () => {
    expect(parseSavedJobs(JSON.stringify(saved), 'w-1')).toEqual(saved);
  });

  it("never hands one worker another worker's jobs", () => {
    expect(parseSavedJobs(JSON.stringify(saved), 'w-2')).toBeNull();
    expect(parseSavedJobs(JSON.stringify(saved), '')).toBeNull();
  });

  it('ignores nothing saved, broken JSON, a list that is not one, or a date that is not one', () => {
    expect(parseSavedJobs(null, 'w-1')).toBeNull();
    expect(parseSavedJobs('{', 'w-1')).toBeNull();
    expect(parseSavedJobs(JSON.stringify({ ...saved, items: { id: 'job-1' } }), 'w-1')).toBeNull();
    expect(parseSavedJobs(JSON.stringify({ ...saved, savedAt: 'yesterday' }), 'w-1')).toBeNull();
  });
});
