import { describe, expect, it } from 'vitest';
import { connectionsRepo } from './connections';
import { newId } from '../../common/ids';
import { watchTableWrites } from '../../testing/table-writes';

const opened = async () => (await connectionsRepo.open(`test-${newId()}`, { workerId: newId() }, new Date().toISOString())).connectionId;

describe('connectionsRepo.countMessage', () => {
  it("counts each frame with one write that holds, whether it continues the window it read or starts the next second's", async () => {
    // Prepare
    const id = await opened();
    const second = Math.floor(Date.now() / 1000);
    const writes = watchTableWrites();

    // Act: each frame reads the connection first, as the handler does
    const places: number[] = [];
    for (const at of [second, second, second, second + 1, second + 1, second + 3]) {
      places.push(await connectionsRepo.countMessage((await connectionsRepo.find(id))!, at));
    }
    writes.stop();

    // Assess
    expect(places).toEqual([1, 2, 3, 1, 2, 1]);
    expect(writes.sent).toBe(6);
    expect(writes.refused).toBe(0);
  });

  it('gives every frame of a burst that read the window before any wrote its own place, a refusal only for each reset it lost', async () => {
    // Prepare: five frames handled at once, all having read a connection with no window yet
    const id = await opened();
    const seen = (await connectionsRepo.find(id))!;
    const second = Math.floor(Date.now() / 1000);
    const writes = watchTableWrites();

    // Act
    const places = await Promise.all(Array.from({ length: 5 }, () => connectionsRepo.countMessage(seen, second)));
    writes.stop();

    // Assess
    expect(places.sort()).toEqual([1, 2, 3, 4, 5]);
    expect((await connectionsRepo.find(id))?.windowCount).toBe(5);
    expect(writes.refused).toBe(4);
    expect(writes.sent - writes.refused).toBe(5);
  });

  it('counts nothing for a connection that is gone', async () => {
    // Prepare
    const id = await opened();
    const seen = (await connectionsRepo.find(id))!;
    await connectionsRepo.close(id);

    // Act
    const place = await connectionsRepo.countMessage(seen, Math.floor(Date.now() / 1000));

    // Assess
    expect(place).toBe(Number.POSITIVE_INFINITY);
    expect(await connectionsRepo.find(id)).toBeUndefined();
  });
});
