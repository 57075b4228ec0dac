import { beforeEach, describe, expect, it, vi } from 'vitest';
import { newId } from '../ids';
import { manySessions, sessionRowsOf } from '../../testing/sessions';
import { sessions, SESSION_CAP, type SessionRole } from './sessions';

/** The time sessions start at in startInTurn: a minute ago, then a second later each time. */
const clock = { at: 0 };

/** Starts `count` sessions one after another, each a second after the last (their order is by start). */
async function startInTurn(role: SessionRole, subjectId: string, count: number): Promise<string[]> {
  const secrets: string[] = [];
  for (let i = 0; i < count; i++) {
    // Two starts within one millisecond would tie on the index's sort key; a second apart they cannot.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(clock.at);
    clock.at += 1000;
    try {
      secrets.push((await sessions.start(role, subjectId, 'someone')).secret);
    } finally {
      vi.useRealTimers();
    }
  }
  return secrets;
}

describe('sessions', () => {
  beforeEach(() => {
    clock.at = Date.now() - 60_000;
  });

  // Ending all but the one in use, after a password change, is proven through the handler in
  // setup-admin.test.ts, the one file that knows the owner's password.
  it('ends every session of a person, however many Query pages they fill (a terminated worker)', async () => {
    // Prepare: more than one Query page holds (DynamoDB stops a page at 1 MB)
    const workerId = newId();
    const secrets = await manySessions('worker', workerId, 5000);
    expect((await sessionRowsOf('worker', workerId)).pages).toBeGreaterThan(1);

    // Act
    await sessions.endAllOf('worker', workerId);

    // Assess
    expect((await sessionRowsOf('worker', workerId)).pks).toEqual([]);
    expect(await sessions.find(secrets.at(-1)!)).toBeUndefined();
  });

  it('leaves other people’s sessions alone', async () => {
    // Prepare
    const [someone, other] = [newId(), newId()];
    await sessions.start('worker', someone, 'someone');
    const { secret } = await sessions.start('worker', other, 'other');

    // Act
    await sessions.endAllOf('worker', someone);

    // Assess
    expect(await sessions.find(secret)).toBeDefined();
  });

  it.each([
    ['worker', 10],
    ['admin', 5],
  ] as const)('keeps at most the cap of live sessions for a %s (%i): a new one ends the oldest', async (role, cap) => {
    // Prepare
    expect(SESSION_CAP[role]).toBe(cap);
    const subjectId = newId();
    const first = await startInTurn(role, subjectId, cap);

    // Act
    const [newest] = await startInTurn(role, subjectId, 1);
    const [newer] = await startInTurn(role, subjectId, 1);

    // Assess: the two oldest are gone, the rest live
    expect(await sessions.find(first[0]!)).toBeUndefined();
    expect(await sessions.find(first[1]!)).toBeUndefined();
    for (const secret of [...first.slice(2), newest!, newer!]) expect(await sessions.find(secret)).toBeDefined();
    expect((await sessionRowsOf(role, subjectId)).pks).toHaveLength(cap);
  });

  it('brings a person far over the cap back to it at the next start', async () => {
    // Prepare
    const workerId = newId();
    await manySessions('worker', workerId, 40);

    // Act
    const { secret } = await sessions.start('worker', workerId, 'someone');

    // Assess
    const { pks } = await sessionRowsOf('worker', workerId);
    expect(pks).toHaveLength(SESSION_CAP.worker);
    expect(await sessions.find(secret)).toBeDefined();
  });
});
