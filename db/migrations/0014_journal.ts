import { sql, type Kysely } from 'kysely';
import { appendNavLink } from './nav-links.ts';

/**
 * Her journal (issue 22, decision 0021): posts are rows of `pages` with kind 'post', so they
 * share the pages' drafts, version check, revisions (`page_revisions`), redirects and
 * rendering. A post's row key (`pages.slug`) is `post/<id>`: it never meets a page's slug (a
 * page's slug has no '/'), and the post keeps its id when its public slug (in its content,
 * served at /blog/{slug}) changes.
 * - publish_at: when a scheduled post publishes itself; the job that publishes it clears it in
 *   the same statement that claims it, so it publishes once whichever replica gets there first.
 * - first_published_at: the post's date (newest first on /blog); kept through an unpublish.
 * - newsletter_id / newsletter_sent_at: the newsletter made of it (sent once).
 * - pages_post_slug: a post's slug is unique among posts (drafts; the published slug is
 *   checked by the use-case), whatever the pages use.
 * - Data: "Journal" (/blog) is appended to both navigation bars of an existing database's
 *   site content, draft and published, as a new revision, unless a /blog link is there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table pages drop constraint if exists pages_kind_check`.execute(db);
  await sql`alter table pages add constraint pages_kind_check check (kind in ('builtin', 'custom', 'post'))`.execute(db);
  await db.schema
    .alterTable('pages')
    .addColumn('publish_at', 'timestamptz')
    .addColumn('first_published_at', 'timestamptz')
    .addColumn('newsletter_id', 'text', (c) => c.references('newsletters.id').onDelete('set null'))
    .addColumn('newsletter_sent_at', 'timestamptz')
    .execute();
  // The scheduler's question every tick: is anything due?
  await db.schema.createIndex('pages_publish_at').on('pages').column('publish_at').where(sql.ref('publish_at'), 'is not', null).execute();
  await sql`create unique index pages_post_slug on pages ((draft::jsonb ->> 'slug')) where kind = 'post'`.execute(db);
  await addJournalLinks(db);
}

/**
 * Both navigation bars of a database made before the journal get its link (a fresh database has
 * none yet: the YAML seeds it with the link). Exported for its test; takes the database without
 * the camelCase plugin, as migrations do.
 */
export async function addJournalLinks(db: Kysely<any>): Promise<void> {
  await appendNavLink(db, ['mainNav', 'shopNav'], { label: 'Journal', href: '/blog' }, (href) => href === '/blog' || href.startsWith('/blog/'));
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('pages').where('kind', '=', 'post').execute();
  await sql`drop index if exists pages_post_slug`.execute(db);
  await db.schema.dropIndex('pages_publish_at').execute();
  await db.schema
    .alterTable('pages')
    .dropColumn('publish_at')
    .dropColumn('first_published_at')
    .dropColumn('newsletter_id')
    .dropColumn('newsletter_sent_at')
    .execute();
  await sql`alter table pages drop constraint if exists pages_kind_check`.execute(db);
  await sql`alter table pages add constraint pages_kind_check check (kind in ('builtin', 'custom'))`.execute(db);
}
