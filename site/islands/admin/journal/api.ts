/**
 * The "Journal" editor's calls to /api/admin/posts (issue 22). Every call carries the admin
 * session (a 401 goes to the login page); a server that can't be reached answers null.
 */
import type { PageRevision, PostDetail, PostListItem, PostState } from '../../../../contract/content.ts';
import { NEXT_CURSOR_HEADER, pageAddress } from '../../../../contract/paging.ts';
import { call, type Answer } from '../pages/api';

const post = (id: string) => `/api/admin/posts/${encodeURIComponent(id)}`;

export const postsApi = {
  /**
   * A page of her posts, newest first, as every admin list pages (contract/paging.ts): `after`
   * is the page before's `next` (the answer's X-Next-Cursor); `q`: words of the title.
   */
  list: async (options: { after?: string | null; q?: string } = {}): Promise<Answer<{ items: PostListItem[]; next: string | null }>> => {
    const res = await call<PostListItem[]>('GET', pageAddress('/api/admin/posts', { q: options.q }, options.after ?? undefined));
    if (!res?.ok || !Array.isArray(res.data)) return res as Answer<{ items: PostListItem[]; next: string | null }>;
    return { ...res, data: { items: res.data, next: res.headers?.get(NEXT_CURSOR_HEADER) ?? null } } as Answer<{ items: PostListItem[]; next: string | null }>;
  },
  get: (id: string) => call<PostDetail>('GET', post(id)),
  create: (body: unknown) => call<{ id: string; slug: string; version: number; state: PostState }>('POST', '/api/admin/posts', body),
  save: (id: string, content: unknown, version: number) =>
    call<{ version: number; hasUnpublishedChanges: boolean; state: PostState }>('PUT', post(id), { content, version }),
  publish: (id: string, version?: number) =>
    call<{ revision: number; publishedAt: string; path: string }>('POST', `${post(id)}/publish`, version !== undefined ? { version } : {}),
  schedule: (id: string, at: string | null) => call<{ publishAt: string | null; state: PostState }>('POST', `${post(id)}/schedule`, { at }),
  unpublish: (id: string) => call<object>('POST', `${post(id)}/unpublish`),
  remove: (id: string) => call<object>('DELETE', post(id)),
  revisions: (id: string) => call<PageRevision[]>('GET', `${post(id)}/revisions`),
  restore: (id: string, n: number) => call<{ revision: number }>('POST', `${post(id)}/revisions/${n}/restore`),
  newsletter: (id: string, full: boolean) => call<{ message: string; total: number; newsletterSentAt: string }>('POST', `${post(id)}/newsletter`, { full }),
};

/** Where the draft is shown as the real page. */
export const postPreviewUrl = (id: string) => `${post(id)}/preview`;
