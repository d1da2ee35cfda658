/**
 * The admin's "Journal" (issue 22), built for her phone on the Pages editor's parts: the list of
 * posts with their state, each post as a form generated from its schema (contract/content.ts
 * postContent: the doc lines are the help), photos chosen from her uploads or uploaded on the
 * spot (a cover, and photos put into the text), the search-result preview, Save draft /
 * Preview / Publish in the bar at the bottom, a schedule, the history with a one-step restore,
 * and "Send as newsletter" once it is published. The server checks everything again.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import AdminShell from './AdminShell';
import { formatLosAngeles, useAdminList } from './admin-ui';
import { confirmDialog, showAlert } from '../../lib/alert';
import {
  inlinePhoto,
  POST_MESSAGES,
  postContent,
  postSlug,
  slugify,
  type PageRevision,
  type PostDetail,
  type PostListItem,
} from '../../../contract/content.ts';
import { ActionBar, History } from './PagesEditor';
import { issuesByPath, refusalText } from './pages/api';
import { pathKey, setIn, validateContent, type Path } from './pages/fields';
import { photosInContent, usePhotoLibrary, type PhotoLibrary } from './pages/photos';
import { SchemaForm, useFocusFirstError } from './pages/SchemaForm';
import { SeoPreview } from './pages/SeoPreview';
import { postPreviewUrl, postsApi } from './journal/api';

type Route = { view: 'list' } | { view: 'edit'; id: string } | { view: 'new' };

function routeOf(search: string): Route {
  const q = new URLSearchParams(search);
  const id = q.get('post');
  if (id) return { view: 'edit', id };
  return q.has('new') ? { view: 'new' } : { view: 'list' };
}
const hrefOf = (r: Route) => (r.view === 'edit' ? `?post=${encodeURIComponent(r.id)}` : r.view === 'new' ? '?new' : window.location.pathname);

type Go = (route: Route, options?: { replace?: boolean; force?: boolean }) => Promise<void>;

/** A link that opens in place (this island) unless she asks for a new tab. */
const inPlace = (open: () => void) => (e: MouseEvent<HTMLAnchorElement>) => {
  if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
  e.preventDefault();
  open();
};

/** The fields in the order she writes them. */
const ORDER = ['title', 'slug', 'body', 'coverImageId', 'coverAlt', 'excerpt', 'brand', 'tags', 'seoTitle', 'seoDescription'] as const;
/** The tags are a short list: open from the start. */
const OPEN = ['tags'] as const;
/** A new post's form: the slug follows the title unless she types one. */
const newPostSchema = postContent.extend({ slug: postSlug.optional() });

/** "Published v3 · Draft changes", "Scheduled for Fri, Dec 18 · 7:30 PM", "Draft". */
function stateLine(p: Pick<PostListItem, 'state' | 'publishedVersion' | 'hasUnpublishedChanges' | 'publishAt'>): string {
  const parts: string[] = [];
  if (p.state === 'published') parts.push(`Published v${p.publishedVersion ?? ''}`.trim());
  else if (p.state === 'unpublished') parts.push('Unpublished');
  else if (p.state === 'draft') parts.push('Draft');
  if (p.publishAt) parts.push(`${p.state === 'published' ? 'Changes scheduled for' : 'Scheduled for'} ${formatLosAngeles(p.publishAt)}`);
  if (p.state === 'published' && p.hasUnpublishedChanges && !p.publishAt) parts.push('Draft changes');
  return parts.join(' · ');
}

// ---------------------------------------------------------------------------------------------
// The list

function PostCard({ post, onOpen }: { post: PostListItem; onOpen: () => void }) {
  return (
    <li className="card page-card" data-post={post.id}>
      <h3>
        <a href={`?post=${encodeURIComponent(post.id)}`} onClick={inPlace(onOpen)}>
          {post.title || 'Untitled'}
        </a>
      </h3>
      <p className="page-card-path">
        {post.path ?? `/blog/${post.slug} (not public)`}
        {post.tags.length ? ` · ${post.tags.join(', ')}` : ''}
      </p>
      <p className={post.state === 'published' && !post.hasUnpublishedChanges ? 'page-badge' : 'page-badge page-badge-draft'}>{stateLine(post)}</p>
      <p className="muted page-card-date">
        {post.date ? `Dated ${formatLosAngeles(post.date)}` : `Updated ${formatLosAngeles(post.updatedAt)}`}
        {post.newsletterSentAt ? ' · Sent as a newsletter' : ''}
      </p>
    </li>
  );
}

function PostList({ go }: { go: Go }) {
  const { items } = useAdminList<PostListItem>('/api/admin/posts', 'Could not load the journal', 'Please check the connection and reload the page.');
  return (
    <>
      <p className="pages-intro">Your posts, newest first. A post stays a draft, seen only here, until you publish it or its scheduled time comes.</p>
      <p>
        <a className="button" href="?new" onClick={inPlace(() => void go({ view: 'new' }))}>
          New post
        </a>{' '}
        <a className="button button-quiet" href="/blog" target="_blank" rel="noopener">
          See the journal<span className="sr-only"> (new tab)</span>
        </a>
      </p>
      {items === null ? (
        <p role="status">Loading…</p>
      ) : items.length === 0 ? (
        <p className="muted">No posts yet: “New post” starts one.</p>
      ) : (
        <ul className="page-cards">
          {items.map((p) => (
            <PostCard key={p.id} post={p} onOpen={() => void go({ view: 'edit', id: p.id })} />
          ))}
        </ul>
      )}
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// Photos in the text

/**
 * "Insert a photo": one of hers or one uploaded now (the Pages editor's photo chooser), with its
 * alt text, written into the text where the cursor was as ![what it shows](/api/images/{id}).
 */
function InsertPhoto(props: { body: string; photos: PhotoLibrary; onInsert: (body: string) => void }) {
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');
  const cursor = useRef<number | null>(null);

  const textarea = () => ref.current?.closest('.pf-top')?.querySelector('textarea') ?? null;
  const onChange = useCallback((path: Path, v: unknown) => {
    setValue((old) => setIn(old, path, v) as Record<string, unknown>);
    const key = pathKey(path);
    setErrors((e) => (key in e ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== key)) : e));
  }, []);

  function start() {
    // Where she was writing: the photo goes there.
    const area = textarea();
    cursor.current = area && document.activeElement === area ? area.selectionStart : (area?.selectionStart ?? null);
    setOpen(true);
    setStatus('');
  }

  function insert() {
    const checked = validateContent(inlinePhoto, value);
    if (!checked.ok) return setErrors(checked.errors);
    const photo = checked.data as { imageId: string; imageAlt: string };
    const markdown = `![${photo.imageAlt.replace(/[[\]]/g, '')}](/api/images/${photo.imageId})`;
    const at = Math.min(cursor.current ?? props.body.length, props.body.length);
    const before = props.body.slice(0, at).replace(/\s+$/, '');
    const after = props.body.slice(at).replace(/^\s+/, '');
    const next = `${before}${before ? '\n\n' : ''}${markdown}${after ? `\n\n${after}` : '\n'}`;
    props.onInsert(next);
    setOpen(false);
    setValue({});
    setErrors({});
    setStatus('Photo put into the text.');
    const area = textarea();
    const caret = before.length + (before ? 2 : 0) + markdown.length;
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(caret, caret);
    });
  }

  return (
    <div ref={ref} className="admin-panel post-insert-photo">
      {open ? (
        <div role="group" aria-labelledby={`${id}-h`}>
          <h3 id={`${id}-h`}>Insert a photo in the text</h3>
          <SchemaForm schema={inlinePhoto} value={value} errors={errors} onChange={onChange} photos={props.photos} />
          <div className="row-actions">
            <button type="button" className="button button-small" onClick={insert}>
              Insert the photo
            </button>
            <button type="button" className="button button-quiet button-small" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="button button-quiet button-small" onClick={start}>
          Insert a photo in the text
        </button>
      )}
      <p className="sr-only" role="status">
        {status}
      </p>
    </div>
  );
}

/** The start of her Markdown as words (photos out, links as their words), as the excerpt the server makes reads. */
const plainStart = (markdown: string) =>
  markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);

/** The search-result preview, and the photo insert after the body: what the form shows besides its fields. */
function useAfter(photos: PhotoLibrary, onChange: (path: Path, value: unknown) => void) {
  return useMemo(
    () => ({
      body: (value: unknown) => {
        const v = (value ?? {}) as Record<string, unknown>;
        return <InsertPhoto body={typeof v.body === 'string' ? v.body : ''} photos={photos} onInsert={(body) => onChange(['body'], body)} />;
      },
      seoDescription: (value: unknown) => {
        const v = (value ?? {}) as Record<string, unknown>;
        const str = (x: unknown) => (typeof x === 'string' ? x : '');
        const slug = str(v.slug) || slugify(str(v.title)) || 'your-post';
        // What the page itself would say: the excerpt, else the start of the text.
        const description = str(v.seoDescription) || str(v.excerpt) || plainStart(str(v.body));
        return <SeoPreview title={str(v.seoTitle) || str(v.title)} description={description} path={`/blog/${slug}`} />;
      },
    }),
    [photos, onChange],
  );
}

// ---------------------------------------------------------------------------------------------
// One post

function BackButton({ go }: { go: Go }) {
  return (
    <p className="page-back">
      <a className="button button-quiet button-small" href="?" onClick={inPlace(() => void go({ view: 'list' }))}>
        <span aria-hidden="true">← </span>All posts
      </a>
    </p>
  );
}

/** A date and time input's value (the phone's own zone) for an ISO instant, and back. */
const localInput = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

function SchedulePanel(props: { post: PostDetail; dirty: boolean; busy: boolean; onChanged: () => Promise<void> }) {
  const id = useId();
  const [at, setAt] = useState(() => localInput(props.post.publishAt) || localInput(new Date(Date.now() + 60 * 60_000).toISOString()));
  const [error, setError] = useState('');
  const { post } = props;

  async function schedule(e: FormEvent) {
    e.preventDefault();
    if (props.dirty)
      return showAlert({ icon: 'info', title: 'Save the draft first', text: 'Your changes are not saved yet: save the draft, then schedule it.' });
    const when = new Date(at);
    if (!at || Number.isNaN(when.getTime())) return setError('Choose a date and a time.');
    if (when.getTime() <= Date.now()) return setError('Choose a time in the future.');
    setError('');
    const res = await postsApi.schedule(post.id, when.toISOString());
    if (!res?.ok) return setError(issuesByPath(res)?.at ?? refusalText(res));
    await props.onChanged();
    await showAlert({ icon: 'success', title: 'Scheduled', text: `The post publishes itself on ${formatLosAngeles(when.toISOString())}.` });
  }

  async function cancel() {
    const res = await postsApi.schedule(post.id, null);
    if (!res?.ok) return showAlert({ icon: 'error', title: 'Not changed', text: refusalText(res) });
    await props.onChanged();
  }

  return (
    <section className="admin-panel post-schedule" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Schedule</h3>
      {post.publishAt && (
        <p className="page-badge page-badge-draft">
          {post.state === 'published' ? 'The saved draft publishes itself on' : 'Publishes itself on'} {formatLosAngeles(post.publishAt)}.
        </p>
      )}
      <form onSubmit={(e) => void schedule(e)} noValidate aria-labelledby={`${id}-h`}>
        <div className="field">
          <label htmlFor={`${id}-at`}>Publish on</label>
          <span className="field-hint" id={`${id}-hint`}>
            The saved draft publishes itself at this time, even with your phone off.
          </span>
          <input
            id={`${id}-at`}
            type="datetime-local"
            value={at}
            aria-invalid={error ? true : undefined}
            aria-describedby={[error ? `${id}-error` : '', `${id}-hint`].filter(Boolean).join(' ')}
            onChange={(e) => setAt(e.target.value)}
          />
          {error && (
            <span className="field-error" id={`${id}-error`}>
              {error}
            </span>
          )}
        </div>
        <div className="row-actions">
          <button type="submit" className="button button-small" disabled={props.busy}>
            {post.publishAt ? 'Change the time' : 'Schedule'}
          </button>
          {post.publishAt && (
            <button type="button" className="button button-quiet button-small" disabled={props.busy} onClick={() => void cancel()}>
              Cancel the schedule
            </button>
          )}
        </div>
      </form>
    </section>
  );
}

function NewsletterPanel(props: { post: PostDetail; busy: boolean; onSent: () => Promise<void> }) {
  const id = useId();
  const [full, setFull] = useState(false);
  const { post } = props;
  if (post.newsletterSentAt)
    return (
      <section className="admin-panel post-newsletter" aria-labelledby={`${id}-h`}>
        <h3 id={`${id}-h`}>Newsletter</h3>
        <p>Sent to your subscribers on {formatLosAngeles(post.newsletterSentAt)}.</p>
      </section>
    );

  async function send() {
    const sure = await confirmDialog({
      title: 'Send this post to every subscriber?',
      text: `Each subscriber gets it once, with ${full ? 'the whole post' : 'its excerpt'} and a link to it. A post is sent only once.`,
      confirmText: 'Send',
    });
    if (!sure) return;
    const res = await postsApi.newsletter(post.id, full);
    if (!res?.ok) return showAlert({ icon: 'error', title: 'Not sent', text: refusalText(res) });
    await props.onSent();
    await showAlert({
      icon: 'success',
      title: 'On its way',
      text: `The newsletter is on its way to ${res.data.total} subscriber${res.data.total === 1 ? '' : 's'}.`,
    });
  }

  return (
    <section className="admin-panel post-newsletter" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Newsletter</h3>
      {post.state !== 'published' ? (
        <p className="muted">Once the post is published, you can send it to your subscribers here.</p>
      ) : (
        <>
          <fieldset className="pf-group">
            <legend>What subscribers get</legend>
            <div className="field pf-check">
              <input id={`${id}-excerpt`} type="radio" name={`${id}-full`} checked={!full} onChange={() => setFull(false)} />
              <label htmlFor={`${id}-excerpt`}>The excerpt and a link to the post</label>
            </div>
            <div className="field pf-check">
              <input id={`${id}-full`} type="radio" name={`${id}-full`} checked={full} onChange={() => setFull(true)} />
              <label htmlFor={`${id}-full`}>The whole post</label>
            </div>
          </fieldset>
          <p>
            <button type="button" className="button button-small" disabled={props.busy} onClick={() => void send()}>
              Send as newsletter
            </button>
          </p>
        </>
      )}
    </section>
  );
}

function PostEditor({ id, photos, go, dirtyRef }: { id: string; photos: PhotoLibrary; go: Go; dirtyRef: { current: boolean } }) {
  const headingId = useId();
  const formId = useId();
  const [detail, setDetail] = useState<PostDetail | null>(null);
  const [missing, setMissing] = useState('');
  const [content, setContent] = useState<unknown>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [shownErrors, setShownErrors] = useState(0);
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const [previewBlocked, setPreviewBlocked] = useState(false);
  const [revisions, setRevisions] = useState<PageRevision[] | null>(null);
  const edits = useRef(0);
  const version = useRef(0);
  const busyRef = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const { add: addPhotos, load: loadPhotos } = photos;
  useFocusFirstError(formRef, shownErrors);

  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty, dirtyRef]);

  const load = useCallback(async () => {
    const res = await postsApi.get(id);
    if (!res?.ok) return setMissing(res?.status === 404 ? POST_MESSAGES.notFound : refusalText(res));
    setDetail(res.data);
    version.current = res.data.version;
    setContent(res.data.content);
    setErrors({});
    setDirty(false);
    edits.current = 0;
    addPhotos(photosInContent(res.data.content));
  }, [id, addPhotos]);

  const loadRevisions = useCallback(async () => {
    const res = await postsApi.revisions(id);
    setRevisions(res?.ok && Array.isArray(res.data) ? res.data : []);
  }, [id]);

  /** The post's state (version, schedule, newsletter) without touching the form. */
  const refreshState = useCallback(async () => {
    const res = await postsApi.get(id);
    if (!res?.ok) return;
    setDetail(res.data);
    version.current = res.data.version;
  }, [id]);

  useEffect(() => {
    void load();
    void loadRevisions();
    void loadPhotos();
  }, [load, loadRevisions, loadPhotos]);

  const onChange = useCallback((path: Path, value: unknown) => {
    setContent((c: unknown) => setIn(c, path, value));
    edits.current++;
    setDirty(true);
    setMessage('');
    const key = pathKey(path);
    setErrors((e) => {
      if (!(key in e)) return e;
      const { [key]: _gone, ...rest } = e;
      return rest;
    });
  }, []);
  const after = useAfter(photos, onChange);

  async function run(what: string, fn: () => Promise<void>) {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(what);
    try {
      await fn();
    } finally {
      busyRef.current = false;
      setBusy(null);
    }
  }

  function showErrors(found: Record<string, string>) {
    setErrors(found);
    setShownErrors((n) => n + 1);
    const loose = Object.entries(found).filter(([k]) => k === '' || k === 'version');
    if (loose.length) void showAlert({ icon: 'error', title: 'Not saved', text: loose.map(([, m]) => m).join(' ') });
  }

  /** Saves the draft; true when saved. Her edits stay in the form whatever happens. */
  async function save(): Promise<boolean> {
    if (!detail) return false;
    const checked = validateContent(postContent, content);
    if (!checked.ok) {
      showErrors(checked.errors);
      setMessage('Not saved: fix the fields marked in red.');
      return false;
    }
    const at = edits.current;
    const res = await postsApi.save(id, checked.data, version.current);
    if (res?.ok) {
      version.current = res.data.version;
      setDetail((d) => d && { ...d, version: res.data.version, hasUnpublishedChanges: res.data.hasUnpublishedChanges, state: res.data.state });
      if (edits.current === at) setDirty(false);
      setErrors({});
      setMessage('Draft saved.');
      return true;
    }
    const byPath = res?.status === 400 || res?.status === 409 ? issuesByPath(res) : null;
    if (byPath) {
      showErrors(byPath);
      setMessage('Not saved: fix the fields marked in red.');
      return false;
    }
    setMessage(res?.status === 409 ? 'Not saved: the post changed elsewhere.' : 'Not saved.');
    await showAlert({ icon: 'error', title: 'Not saved', text: refusalText(res, POST_MESSAGES.stale) });
    return false;
  }

  function preview() {
    void run('Saving for the preview…', async () => {
      // Opened now, while the tap counts: a window opened after the save would be blocked.
      const win = window.open('', '_blank');
      if (dirty && !(await save())) {
        win?.close();
        return;
      }
      if (win) {
        win.opener = null;
        win.location.href = postPreviewUrl(id);
        setPreviewBlocked(false);
        setMessage('The preview opened in a new tab: the real page with your draft.');
      } else {
        setPreviewBlocked(true);
        setMessage('Open the preview with the link above the buttons.');
      }
    });
  }

  function publish() {
    void run('Publishing…', async () => {
      if (dirty && !(await save())) return;
      const res = await postsApi.publish(id, version.current);
      if (!res?.ok) {
        setMessage('Not published.');
        const byPath = issuesByPath(res);
        if (byPath) showErrors(byPath);
        await showAlert({ icon: 'error', title: 'Not published', text: refusalText(res) });
        return;
      }
      setMessage(`Published as revision ${res.data.revision} at ${res.data.path}. Visitors see it within seconds.`);
      await Promise.all([refreshState(), loadRevisions()]);
    });
  }

  async function restore(n: number) {
    const sure = await confirmDialog({
      title: `Restore revision ${n}?`,
      text: `Its words and pictures become the post again and are published now, as a new revision.${dirty ? ' Your unsaved changes in the form are lost.' : ''}`,
      confirmText: 'Restore',
    });
    if (!sure) return;
    await run('Restoring…', async () => {
      const res = await postsApi.restore(id, n);
      if (!res?.ok) {
        await showAlert({ icon: 'error', title: 'Not restored', text: refusalText(res) });
        return;
      }
      await Promise.all([load(), loadRevisions()]);
      setMessage(`Revision ${n} restored and published as revision ${res.data.revision}.`);
    });
  }

  async function unpublish() {
    const slug = detail?.path ?? '';
    const sure = await confirmDialog({
      title: 'Unpublish this post?',
      text: `Visitors to ${slug} will get “page not found”, and it leaves the journal and the feed until you publish it again. Its draft and history stay.`,
      confirmText: 'Unpublish',
    });
    if (!sure) return;
    await run('Unpublishing…', async () => {
      const res = await postsApi.unpublish(id);
      if (!res?.ok) return showAlert({ icon: 'error', title: 'Not unpublished', text: refusalText(res) });
      setMessage('Unpublished: it is off the journal.');
      await Promise.all([refreshState(), loadRevisions()]);
    });
  }

  async function remove() {
    const sure = await confirmDialog({
      title: 'Delete this post?',
      text: 'The post, its draft and its history are deleted; its address will answer “page not found”. This can’t be undone.',
    });
    if (!sure) return;
    const res = await postsApi.remove(id);
    if (!res?.ok) return showAlert({ icon: 'error', title: 'Not deleted', text: refusalText(res) });
    await go({ view: 'list' }, { force: true });
    await showAlert({ icon: 'success', title: 'Post deleted' });
  }

  function onSave(e: FormEvent) {
    e.preventDefault();
    void run('Saving…', async () => void (await save()));
  }

  if (missing)
    return (
      <>
        <BackButton go={go} />
        <p role="alert">{missing}</p>
      </>
    );
  if (!detail) return <p role="status">Loading…</p>;

  const title = String((content as { title?: unknown })?.title || 'Untitled post');
  const status = busy ?? (message || (dirty ? 'Unsaved changes.' : stateLine(detail)));
  return (
    <div className="page-editor" data-post-editor={id}>
      <BackButton go={go} />
      <h2 id={headingId}>{title}</h2>
      <p className="page-card-path">
        {detail.path ? (
          <a href={detail.path} target="_blank" rel="noopener">
            {detail.path}
            <span className="sr-only"> (the live post, in a new tab)</span>
          </a>
        ) : (
          `/blog/${detail.slug} (not public yet)`
        )}
      </p>
      <form ref={formRef} id={formId} className="page-form" aria-labelledby={headingId} noValidate onSubmit={onSave}>
        <SchemaForm schema={postContent} value={content} errors={errors} onChange={onChange} photos={photos} order={ORDER} open={OPEN} after={after} />
      </form>
      <SchedulePanel post={detail} dirty={dirty} busy={busy !== null} onChanged={refreshState} />
      <NewsletterPanel post={detail} busy={busy !== null} onSent={refreshState} />
      <History revisions={revisions} busy={busy !== null} onRestore={(n) => void restore(n)} />
      <section className="admin-panel page-settings" aria-label="Visibility">
        <h3>Visibility</h3>
        <div className="row-actions">
          {detail.state === 'published' && (
            <button type="button" className="button button-quiet button-small" disabled={busy !== null} onClick={() => void unpublish()}>
              Unpublish post
            </button>
          )}
          <button type="button" className="button danger button-small" disabled={busy !== null} onClick={() => void remove()}>
            Delete post
          </button>
        </div>
      </section>
      <ActionBar
        status={status}
        extra={
          previewBlocked && (
            <p className="pages-actionbar-link">
              <a href={postPreviewUrl(id)} target="_blank" rel="noopener">
                Open the preview<span className="sr-only"> (new tab)</span>
              </a>
            </p>
          )
        }
      >
        <button type="submit" form={formId} className="button button-quiet" disabled={busy !== null}>
          Save draft
        </button>
        <button type="button" className="button button-quiet" disabled={busy !== null} onClick={preview}>
          Preview
        </button>
        <button type="button" className="button" disabled={busy !== null} onClick={publish}>
          Publish
        </button>
      </ActionBar>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// A new post

function NewPost({ photos, go, dirtyRef }: { photos: PhotoLibrary; go: Go; dirtyRef: { current: boolean } }) {
  const headingId = useId();
  const formId = useId();
  const [value, setValue] = useState<Record<string, unknown>>(() => ({ title: '', body: '', brand: 'yoga', tags: [] }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [shownErrors, setShownErrors] = useState(0);
  const [sending, setSending] = useState(false);
  const [message, setMessage] = useState('');
  // The slug follows the title until she types one of her own.
  const slugTyped = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, shownErrors);
  const { load: loadPhotos } = photos;
  useEffect(() => void loadPhotos(), [loadPhotos]);

  const onChange = useCallback(
    (path: Path, v: unknown) => {
      const key = pathKey(path);
      if (key === 'slug') slugTyped.current = typeof v === 'string' && v.trim() !== '';
      setValue((old) => {
        let next = setIn(old, path, v) as Record<string, unknown>;
        if (key === 'title' && !slugTyped.current)
          next = setIn(next, ['slug'], slugify(typeof v === 'string' ? v : '') || undefined) as Record<string, unknown>;
        return next;
      });
      dirtyRef.current = true;
      setMessage('');
      setErrors((e) => {
        const drop = key === 'title' ? [key, 'slug'] : [key];
        if (!drop.some((k) => k in e)) return e;
        return Object.fromEntries(Object.entries(e).filter(([k]) => !drop.includes(k)));
      });
    },
    [dirtyRef],
  );
  const after = useAfter(photos, onChange);

  async function create(e: FormEvent) {
    e.preventDefault();
    if (sending) return;
    const checked = validateContent(newPostSchema, value);
    if (!checked.ok) {
      setErrors(checked.errors);
      setShownErrors((n) => n + 1);
      setMessage('Not created: fix the fields marked in red.');
      return;
    }
    setSending(true);
    setMessage('Saving the draft…');
    const res = await postsApi.create(checked.data);
    setSending(false);
    if (res?.ok) {
      dirtyRef.current = false;
      await go({ view: 'edit', id: res.data.id }, { replace: true, force: true });
      await showAlert({ icon: 'success', title: 'Draft saved', text: 'Preview it, then publish it or schedule it when it is ready.' });
      return;
    }
    const byPath = issuesByPath(res);
    if (byPath) {
      setErrors(byPath);
      setShownErrors((n) => n + 1);
      setMessage('Not created: fix the fields marked in red.');
      return;
    }
    setMessage('Not created.');
    await showAlert({ icon: 'error', title: 'Post not created', text: refusalText(res) });
  }

  return (
    <div className="page-editor">
      <BackButton go={go} />
      <h2 id={headingId}>New post</h2>
      <p className="field-hint">A title, your text with photos if you like, and a cover photo for the journal. It stays a draft until you publish it.</p>
      <form ref={formRef} id={formId} className="page-form" aria-labelledby={headingId} noValidate onSubmit={(e) => void create(e)}>
        <SchemaForm schema={newPostSchema} value={value} errors={errors} onChange={onChange} photos={photos} order={ORDER} open={OPEN} after={after} />
      </form>
      <ActionBar status={message}>
        <button type="submit" form={formId} className="button" disabled={sending}>
          Save draft
        </button>
      </ActionBar>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------

function JournalApp() {
  const [route, setRoute] = useState<Route | null>(null);
  const dirtyRef = useRef(false);
  const photos = usePhotoLibrary();

  useEffect(() => {
    setRoute(routeOf(window.location.search));
    const onPop = () => {
      dirtyRef.current = false;
      setRoute(routeOf(window.location.search));
    };
    const onLeave = (e: BeforeUnloadEvent) => {
      if (dirtyRef.current) e.preventDefault();
    };
    window.addEventListener('popstate', onPop);
    window.addEventListener('beforeunload', onLeave);
    return () => {
      window.removeEventListener('popstate', onPop);
      window.removeEventListener('beforeunload', onLeave);
    };
  }, []);

  const go = useCallback<Go>(async (next, options = {}) => {
    if (!options.force && dirtyRef.current) {
      const leave = await confirmDialog({
        title: 'Leave without saving?',
        text: 'Your changes to this post are not saved yet.',
        confirmText: 'Leave',
        cancelText: 'Stay',
      });
      if (!leave) return;
    }
    dirtyRef.current = false;
    window.history[options.replace ? 'replaceState' : 'pushState'](null, '', hrefOf(next));
    setRoute(next);
    window.scrollTo(0, 0);
  }, []);

  if (!route) return <p role="status">Loading…</p>;
  if (route.view === 'edit') return <PostEditor key={route.id} id={route.id} photos={photos} go={go} dirtyRef={dirtyRef} />;
  if (route.view === 'new') return <NewPost photos={photos} go={go} dirtyRef={dirtyRef} />;
  return <PostList go={go} />;
}

export default function JournalEditor() {
  return (
    <AdminShell current="/admin/journal" title="Journal">
      {() => <JournalApp />}
    </AdminShell>
  );
}
