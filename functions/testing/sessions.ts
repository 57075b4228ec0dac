import { sessionEntity } from '../../shared/entities';
import { sessionItem, type SessionRole } from '../common/auth/sessions';
import { newSecret } from '../common/auth/tokens';
import { batchWrite } from '../common/data/batch';
import { queryPage, type PageStart } from '../common/data/query';

/**
 * Sessions written straight to the table, as many as a person could have piled up before the cap
 * (logging in this often would take far longer, and the cap would end them as it went).
 */
export async function manySessions(role: SessionRole, subjectId: string, count: number): Promise<string[]> {
  const longAgo = Date.now() - 60 * 60 * 1000;
  const secrets = Array.from({ length: count }, () => newSecret());
  const items = secrets.map((secret, i) => sessionItem(role, subjectId, 'someone@example.com', secret, new Date(longAgo + i)));
  await batchWrite(items, []);
  return secrets;
}

/** The pk of every session row of a person, page after page, and how many Query pages they filled. */
export async function sessionRowsOf(role: SessionRole, subjectId: string): Promise<{ pks: string[]; pages: number }> {
  const pks: string[] = [];
  let pages = 0;
  let start: PageStart | undefined;
  do {
    // The person's whole partition, whatever the sort keys hold.
    const page = await queryPage({ ...sessionEntity.indexes.of.range(role, subjectId), sk: undefined }, start);
    pks.push(...page.items.map((i) => i.pk));
    start = page.next;
    pages += 1;
  } while (start);
  return { pks, pages };
}
