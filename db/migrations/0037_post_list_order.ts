import { sql, type Kysely } from 'kysely';

/**
 * Issue 36 (decision 0047): the admin's journal list a page at a time, newest first, by a keyset
 * cursor (posts.repo.ts listPosts). This index serves its order, the post's date (its first
 * publish, else when the draft was made) then its key, both newest first as the shared keyset
 * compares them (api/lib/pages.repo.ts), so a page costs the same at 30 posts
 * and at 3,000; before, the list answered every post at once and stopped silently at 2,000.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index pages_post_list on pages ((coalesce(first_published_at, created_at)) desc, slug desc) where kind = 'post'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists pages_post_list`.execute(db);
}
