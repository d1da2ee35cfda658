/**
 * A link appended to navigation bars of the site content an existing database already holds (a
 * fresh database has none yet: the YAML seeds it with the link), in the draft and in the
 * published copy, as a new revision, as a publish does. A bar that already has such a link
 * (`present`) is left alone. Takes the database without the camelCase plugin, as migrations do.
 * Used by the migrations that brought a new public page: the journal (0014) and gift cards (0029).
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

type Nav = { label: string; href: string }[];

export async function appendNavLink(
  db: Kysely<any>,
  bars: readonly string[],
  link: { label: string; href: string },
  present: (href: string) => boolean,
): Promise<void> {
  const site = await db.selectFrom('pages').select(['draft', 'published', 'published_revision']).where('slug', '=', 'site').executeTakeFirst();
  if (!site) return;
  const withLink = (json: string): { json: string; changed: string[] } => {
    const content = JSON.parse(json) as Record<string, unknown>;
    const changed: string[] = [];
    for (const key of bars) {
      const nav = content[key] as Nav | undefined;
      if (!Array.isArray(nav) || nav.some((l) => typeof l?.href === 'string' && present(l.href))) continue;
      content[key] = [...nav, link];
      changed.push(`${key}.${nav.length}`);
    }
    return { json: JSON.stringify(content), changed };
  };
  const draft = withLink(site.draft as string);
  if (draft.changed.length) {
    await db
      .updateTable('pages')
      .set({ draft: draft.json, draft_version: sql`draft_version + 1`, updated_at: sql`now()` })
      .where('slug', '=', 'site')
      .execute();
  }
  if (site.published === null) return;
  const published = withLink(site.published as string);
  if (!published.changed.length) return;
  const last = await db
    .selectFrom('page_revisions')
    .select(sql<number>`coalesce(max(n), 0)::int`.as('n'))
    .where('slug', '=', 'site')
    .executeTakeFirst();
  const n = (last?.n ?? 0) + 1;
  // As a publish does: a revision (never changed after), and the published copy is that revision.
  await db
    .insertInto('page_revisions')
    .values({
      slug: 'site',
      n,
      content: published.json,
      changed: JSON.stringify(published.changed),
      text_hash: createHash('sha256')
        .update(JSON.stringify(JSON.parse(published.json)))
        .digest('hex'),
    })
    .execute();
  await db
    .updateTable('pages')
    .set({ published: published.json, published_revision: n, published_at: sql`now()`, updated_at: sql`now()` })
    .where('slug', '=', 'site')
    .execute();
}
