import { describe, expect, it } from 'vitest';
import { ConflictError, ForbiddenError } from '../../common/errors';
import { createTestWorker } from '../../testing/workers';
import { workersRepo } from './workers';

describe('workersRepo', () => {
  it('finds an approved worker by email through the claim, in any case', async () => {
    const worker = await createTestWorker();

    expect((await workersRepo.findByEmail(worker.email.toUpperCase()))?.id).toBe(worker.id);
    expect(await workersRepo.findByEmail('nobody-here@example.com')).toBeUndefined();
  });

  it('creates an account once: a second creation returns false and keeps the first hash', async () => {
    const worker = await createTestWorker();

    expect(await workersRepo.createAccount(worker.id, 'scrypt$first')).toBe(true);
    expect(await workersRepo.createAccount(worker.id, 'scrypt$second')).toBe(false);

    expect(await workersRepo.passwordHashOf(worker.id)).toBe('scrypt$first');
    expect((await workersRepo.findById(worker.id))?.hasAccount).toBe(true);
  });

  it('creates no account for a profile still under review', async () => {
    const worker = await createTestWorker({ status: 'pending_review' });

    expect(await workersRepo.createAccount(worker.id, 'scrypt$hash')).toBe(false);

    expect(await workersRepo.passwordHashOf(worker.id)).toBeUndefined();
    expect((await workersRepo.findById(worker.id))?.hasAccount).toBe(false);
  });

  it('keeps the hash out of the profile row', async () => {
    const worker = await createTestWorker();
    await workersRepo.createAccount(worker.id, 'scrypt$hash');

    expect(JSON.stringify(await workersRepo.findById(worker.id))).not.toContain('scrypt$hash');
  });

  it('refuses changes for a worker terminated after their token was checked (403, not a silent write)', async () => {
    const worker = await createTestWorker({ status: 'terminated' });

    await expect(workersRepo.clockIn(worker.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(workersRepo.setAvailability(worker.id, true)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await workersRepo.findById(worker.id)).toMatchObject({ isClockedIn: false, isAvailable: false });
  });

  it('says why a clock change is refused', async () => {
    const worker = await createTestWorker();

    await expect(workersRepo.clockOut(worker.id)).rejects.toThrow(new ConflictError('You are not clocked in.'));
    await workersRepo.clockIn(worker.id);
    await expect(workersRepo.clockIn(worker.id)).rejects.toThrow(new ConflictError('You are already clocked in.'));
  });
});
