import { describe, expect, it } from 'vitest';
import type { WorkerItem } from './workers';
import { workerFigures } from './worker-admin';

const worker = (fields: Partial<WorkerItem>) => ({ status: 'active', isAvailable: false, ...fields }) as WorkerItem;

describe('workerFigures', () => {
  it('averages over every review, not over workers, to one decimal', () => {
    // Prepare: 5 and 4 for one worker, a single 1 for another: (5 + 4 + 1) / 3 = 3.33…
    const workers = [worker({ ratingSum: 9, ratingCount: 2 }), worker({ ratingSum: 1, ratingCount: 1 }), worker({})];

    // Act
    const figures = workerFigures(workers);

    // Assess
    expect(figures).toMatchObject({ averageRating: 3.3, reviewCount: 3 });
  });

  it('gives no average and a zero count before the first review', () => {
    expect(workerFigures([worker({}), worker({ status: 'pending_review' })])).toMatchObject({ averageRating: null, reviewCount: 0 });
  });

  it('counts workers by status and availability, and those on probation', () => {
    const figures = workerFigures([
      worker({ isAvailable: true, probationSince: '2026-11-20T10:00:00.000Z' }),
      worker({ isAvailable: false }),
      worker({ status: 'pending_review' }),
      worker({ status: 'terminated', isAvailable: true }),
    ]);

    expect(figures.workers).toEqual({ active: 2, pendingReview: 1, terminated: 1, available: 1 });
    expect(figures.workersOnProbation).toBe(1);
  });
});
