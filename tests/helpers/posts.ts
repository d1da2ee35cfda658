/**
 * Her journal at scale (issue 36): `count` posts written straight into `pages` in batches, as
 * years of publishing leave them, without a render per post. Post i is dated `i` hours after
 * `from` (post 0 the oldest); each has a tag of TAGS and a title and slug with its number.
 */
import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/client.ts';

export const TAGS = ['breathwork', 'cacao', 'mornings', 'recipes', 'teaching', 'rest'];

export interface InsertedPost {
  id: string;
  slug: string;
  title: string;
}

export async function insertPosts(
  db: DB,
  count: number,
  options: { published?: boolean; from?: Date; prefix?: string; body?: (i: number) => string } = {},
): Promise<InsertedPost[]> {
  const published = options.published ?? true;
  const from = options.from ?? new Date(Date.UTC(2016, 0, 1));
  const prefix = options.prefix ?? 'scaled';
  const out: InsertedPost[] = [];
  for (let start = 0; start < count; start += 500) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 500); i++) {
      const id = randomUUID();
      const content = {
        title: `${prefix} post number ${i}`,
        slug: `${prefix}-post-${i}`,
        body: options.body?.(i) ?? `Words of post ${i}.`,
        brand: 'yoga',
        tags: [TAGS[i % TAGS.length]!],
      };
      const date = new Date(from.getTime() + i * 3_600_000);
      out.push({ id, slug: content.slug, title: content.title });
      rows.push({
        slug: `post/${id}`,
        kind: 'post' as const,
        draft: JSON.stringify(content),
        published: published ? JSON.stringify(content) : null,
        publishedRevision: published ? 1 : null,
        publishedAt: published ? date : null,
        firstPublishedAt: published ? date : null,
        createdAt: date,
        updatedAt: date,
      });
    }
    await db.insertInto('pages').values(rows).execute();
  }
  return out;
}
