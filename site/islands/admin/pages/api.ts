/**
 * The "Pages" editor's calls to /api/admin/pages (issue 19). Every call carries the admin
 * session (a 401 goes to the login page); a server that can't be reached answers null.
 */
import { request, type JsonResult } from '../../../lib/http';
import type { FieldIssue } from '../../../../contract/check.ts';
import type { PageDetail, PageListItem, PageRevision } from '../../../../contract/content.ts';

/** A refusal's body: `{ message, issues? }` (`error` accepted too). */
export interface Refusal {
  error?: string;
  message?: string;
  issues?: FieldIssue[];
}

export type Answer<T> = JsonResult<T & Refusal> | null;

/** A call with the admin session; null when the server can't be reached. The journal's editor calls through it too. */
export async function call<T>(method: string, url: string, body?: unknown): Promise<Answer<T>> {
  try {
    return await request<T & Refusal>(method, url, { session: 'admin', ...(body !== undefined ? { body } : {}) });
  } catch {
    return null;
  }
}

const page = (slug: string) => `/api/admin/pages/${encodeURIComponent(slug)}`;

export const pagesApi = {
  list: () => call<PageListItem[]>('GET', '/api/admin/pages'),
  get: (slug: string) => call<PageDetail>('GET', page(slug)),
  save: (slug: string, content: unknown, version: number) => call<{ version: number; hasUnpublishedChanges: boolean }>('PUT', page(slug), { content, version }),
  /** Publishes the saved draft; with `version`, only if it is still the draft the editor saw. */
  publish: (slug: string, version?: number) =>
    call<{ revision: number; publishedAt: string }>('POST', `${page(slug)}/publish`, version !== undefined ? { version } : {}),
  revisions: (slug: string) => call<PageRevision[]>('GET', `${page(slug)}/revisions`),
  restore: (slug: string, n: number) => call<{ revision: number }>('POST', `${page(slug)}/revisions/${n}/restore`),
  create: (body: unknown) => call<{ slug: string; version: number }>('POST', '/api/admin/pages', body),
  rename: (slug: string, to: string) => call<{ slug: string }>('POST', `${page(slug)}/rename`, { slug: to }),
  unpublish: (slug: string) => call<object>('POST', `${page(slug)}/unpublish`),
  remove: (slug: string) => call<object>('DELETE', page(slug)),
};

/** Where the draft is shown as the real page. */
export const previewUrl = (slug: string) => `${page(slug)}/preview`;

/** What to tell her when a call failed. */
export function refusalText(res: Answer<unknown>, fallback = 'Please try again.'): string {
  if (!res) return 'The server could not be reached. Check the connection and try again.';
  return res.data.message ?? res.data.error ?? fallback;
}

/** A 400's field issues by dotted path of the content (a path may start at the body's `content`). */
export function issuesByPath(res: Answer<unknown>): Record<string, string> | null {
  const issues = res?.data.issues;
  if (!Array.isArray(issues) || issues.length === 0) return null;
  const out: Record<string, string> = {};
  for (const i of issues) {
    if (typeof i?.path !== 'string') continue;
    out[i.path.replace(/^content\.?/, '')] ??= i.message;
  }
  return out;
}
