import { sql, type Kysely } from 'kysely';

/**
 * The teacher's pages (issue 19, decision 0020).
 * - `pages`: one row per page: the site's own (slug = the YAML file's name) and hers
 *   (kind 'custom'). `draft` is what the editor saves, with `draft_version` bumped on every save
 *   (the version check: a save naming an older version is refused). `published` is what the
 *   public sees (null: not published), a copy of revision `published_revision`.
 * - `page_revisions`: every publish (and restore) is a new revision, never changed after; the
 *   waiver's sign-ups point at theirs. `changed` lists the fields that differ from the one before.
 * - `page_redirects`: an old slug of a renamed page answers 301 to its new address.
 * - `rendered_pages`: the public HTML made ahead of the request, per build (a new build's assets
 *   have new names), shared by every replica; `generation` orders the renders so a replica
 *   loads only what changed since it last looked.
 * Content is JSON kept as text: the two drivers (pg, PGlite) pass text the same way.
 * - class_signups / class_waitlist: which waiver revision (and a hash of its text) was accepted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('pages')
    .addColumn('slug', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('builtin', 'custom')`))
    .addColumn('draft', 'text', (c) => c.notNull())
    .addColumn('draft_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('published', 'text')
    .addColumn('published_revision', 'integer')
    .addColumn('published_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createTable('page_revisions')
    .addColumn('slug', 'text', (c) => c.notNull().references('pages.slug').onDelete('cascade').onUpdate('cascade'))
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('changed', 'text', (c) => c.notNull())
    .addColumn('restored_from', 'integer')
    .addColumn('text_hash', 'text', (c) => c.notNull())
    .addColumn('published_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('page_revisions_pkey', ['slug', 'n'])
    .execute();
  await db.schema
    .createTable('page_redirects')
    .addColumn('from_slug', 'text', (c) => c.primaryKey())
    .addColumn('to_slug', 'text', (c) => c.notNull().references('pages.slug').onDelete('cascade').onUpdate('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createTable('rendered_pages')
    .addColumn('build_id', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(200))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('generation', 'bigint', (c) => c.notNull())
    .addColumn('rendered_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('rendered_pages_pkey', ['build_id', 'path'])
    .execute();
  await db.schema.createIndex('rendered_pages_generation').on('rendered_pages').columns(['build_id', 'generation']).execute();
  // One counter for every render: each replica asks "anything newer than what I have?".
  await sql`create sequence render_generation`.execute(db);
  for (const table of ['class_signups', 'class_waitlist']) {
    await db.schema.alterTable(table).addColumn('waiver_revision', 'integer').addColumn('waiver_hash', 'text').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['class_signups', 'class_waitlist']) {
    await db.schema.alterTable(table).dropColumn('waiver_revision').dropColumn('waiver_hash').execute();
  }
  await sql`drop sequence render_generation`.execute(db);
  await db.schema.dropTable('rendered_pages').execute();
  await db.schema.dropTable('page_redirects').execute();
  await db.schema.dropTable('page_revisions').execute();
  await db.schema.dropTable('pages').execute();
}
