import { describe, expect, it } from 'vitest';
import type { CompletedJobView } from '../../../../shared/schemas/job';
import { summarizeEarnings } from './earnings-summary';

const NOW = Date.parse('2030-01-15T12:00:00.000Z');

function job(id: string, endedAt: string, workerShare: number): CompletedJobView {
  return {
    id,
    category: 'plumbing',
    service: 'Plumbing',
    customerName: 'Ada',
    address: '1 Main St',
    hourlyRate: 5000,
    startedAt: null,
    endedAt,
    totalHours: 1,
    amount: workerShare + 500,
    workerShare,
    feePercent: 10,
    state: 'completed',
  };
}

describe('summarizeEarnings', () => {
  it('adds up the worker share of every completed job, not the full amount', () => {
    // Prepare
    const jobs = [job('a', '2030-01-14T10:00:00.000Z', 4500), job('b', '2029-12-01T10:00:00.000Z', 9000)];
    // Act
    const summary = summarizeEarnings(jobs, NOW);
    // Assess
    expect(summary.totalCents).toBe(13_500);
    expect(summary.jobsCompleted).toBe(2);
  });

  it('counts this week as the jobs that ended in the last 7 days', () => {
    // Prepare
    const jobs = [
      job('recent', '2030-01-09T12:00:00.000Z', 1000),
      job('older', '2030-01-08T11:59:59.000Z', 2000),
      job('today', '2030-01-15T11:00:00.000Z', 300),
    ];
    // Act
    const summary = summarizeEarnings(jobs, NOW);
    // Assess
    expect(summary.weekCents).toBe(1300);
  });

  it('lists the history newest first', () => {
    // Prepare
    const jobs = [job('old', '2030-01-01T10:00:00.000Z', 1), job('new', '2030-01-14T10:00:00.000Z', 1), job('mid', '2030-01-07T10:00:00.000Z', 1)];
    // Act
    const { history } = summarizeEarnings(jobs, NOW);
    // Assess
    expect(history.map((j) => j.id)).toEqual(['new', 'mid', 'old']);
  });

  it('answers zeros for a worker with no completed jobs', () => {
    expect(summarizeEarnings([], NOW)).toEqual({ totalCents: 0, weekCents: 0, jobsCompleted: 0, history: [] });
  });
});
