/**
 * The admin's "Journal" (issue 22), built for her phone on the Pages editor's parts: the list of
 * posts with their state, each post as a form generated from its schema (contract/content.ts
 * postContent: the doc lines are the help), photos chosen from her uploads or uploaded on the
 * spot (a cover, and photos put into the text), the search-result preview, Save draft /
 * Preview / Publish in the bar at the bottom, a schedule, the history with a one-step restore,
 * and "Send as newsletter" once it is published. The server checks everything again.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { adminScreen } from './AdminShell';
import { formatLosAngeles } from './admin-ui';
import { confirmDialog, showAlert } from '../../lib/alert';
import { inlinePhoto, POST_MESSAGES, postContent, postSlug, slugify, type PostDetail, type PostListItem } from '../../../contract/content.ts';
import { BackButton, DraftPending, DraftScreen, History, inPlace, NewDraftScreen } from './drafts/DraftParts';
import { useDraftEditor } from './drafts/useDraftEditor';
import { useDraftRoutes, type Go } from './drafts/useDraftRoutes';
import { useNewDraft } from './drafts/useNewDraft';
import { issuesByPath, refusalText } from './pages/api';
import { pathKey, setIn, validateContent, type Path } from './pages/fields';
import { usePhotoLibrary, type PhotoLibrary } from './pages/photos';
import { SchemaForm } from './pages/SchemaForm';
import { SeoPreview } from './pages/SeoPreview';
import { postPreviewUrl, postsApi } from './journal/api';
import { Listing } from '../Listing';

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

/**
 * Her posts a page at a time (issue 36): the newest first, "Show more" for the next page, and a
 * search by title that asks the server, so every post is in reach at 3,000 as at 30.
 */
function PostList({ go }: { go: Go }) {
  const searchId = useId();
  const [items, setItems] = useState<PostListItem[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [searched, setSearched] = useState('');
  const [loading, setLoading] = useState(false);
  const load = useCallback(async (q: string, after: string | null) => {
    setLoading(true);
    const res = await postsApi.list({ q, after });
    setLoading(false);
    if (!res?.ok || !Array.isArray(res.data.items)) {
      if (after === null) setItems([]);
      await showAlert({ icon: 'error', title: 'Could not load the journal', text: 'Please check the connection and reload the page.' });
      return;
    }
    const page = res.data;
    setItems((old) => (after !== null && old ? [...old, ...page.items] : page.items));
    setNext(page.next);
    setSearched(q);
  }, []);
  useEffect(() => void load('', null), [load]);
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
      <form
        className="field admin-search"
        role="search"
        aria-label="Search posts by title"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          void load(query.trim(), null);
        }}
      >
        <label htmlFor={searchId}>Search posts by title</label>
        <input id={searchId} type="search" value={query} autoComplete="off" enterKeyHint="search" onChange={(e) => setQuery(e.target.value)} />
        <button type="submit" className="button button-small">
          Search
        </button>
      </form>
      <Listing items={items} empty={<p className="muted">{searched ? `No post has “${searched}” in its title.` : 'No posts yet: “New post” starts one.'}</p>}>
        {(items) => (
          <ul className="page-cards">
            {items.map((p) => (
              <PostCard key={p.id} post={p} onOpen={() => void go({ view: 'edit', key: p.id })} />
            ))}
          </ul>
        )}
      </Listing>
      {next && (
        <p>
          <button type="button" className="button button-quiet" disabled={loading} onClick={() => void load(searched, next)}>
            Show more
          </button>
        </p>
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
  const editor = useDraftEditor({
    key: id,
    noun: 'post',
    api: postsApi,
    schema: postContent,
    previewUrl: postPreviewUrl(id),
    messages: POST_MESSAGES,
    publishedText: (p) => `Published as revision ${p.revision} at ${p.path}. Visitors see it within seconds.`,
    publishMarksFields: true,
    stateLine,
    photos,
    dirtyRef,
  });
  const { detail, busy, run, setMessage, refreshState, loadRevisions } = editor;
  const after = useAfter(photos, editor.onChange);
  const back = <BackButton go={go} label="All posts" />;
  if (!detail) return <DraftPending editor={editor} back={back} />;

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

  const title = String((editor.content as { title?: unknown })?.title || 'Untitled post');
  return (
    <DraftScreen
      editor={editor}
      back={back}
      title={title}
      noun="post"
      path={detail.path}
      notPublic={`/blog/${detail.slug}`}
      data={{ 'data-post-editor': id }}
      form={{ schema: postContent, order: ORDER, open: OPEN, after }}
    >
      <SchedulePanel post={detail} dirty={editor.dirty} busy={busy} onChanged={refreshState} />
      <NewsletterPanel post={detail} busy={busy} onSent={refreshState} />
      <History editor={editor} />
      <section className="admin-panel page-settings" aria-label="Visibility">
        <h3>Visibility</h3>
        <div className="row-actions">
          {detail.state === 'published' && (
            <button type="button" className="button button-quiet button-small" disabled={busy} onClick={() => void unpublish()}>
              Unpublish post
            </button>
          )}
          <button type="button" className="button danger button-small" disabled={busy} onClick={() => void remove()}>
            Delete post
          </button>
        </div>
      </section>
    </DraftScreen>
  );
}

// ---------------------------------------------------------------------------------------------
// A new post

const newPostValue = () => ({ title: '', body: '', brand: 'yoga', tags: [] });

function NewPost({ photos, go, dirtyRef }: { photos: PhotoLibrary; go: Go; dirtyRef: { current: boolean } }) {
  const draft = useNewDraft({
    schema: newPostSchema,
    initial: newPostValue,
    create: postsApi.create,
    sendingText: 'Saving the draft…',
    refusedTitle: 'Post not created',
    onCreated: async (made) => {
      await go({ view: 'edit', key: made.id }, { replace: true, force: true });
      await showAlert({ icon: 'success', title: 'Draft saved', text: 'Preview it, then publish it or schedule it when it is ready.' });
    },
    photos,
    dirtyRef,
  });
  const after = useAfter(photos, draft.onChange);
  return (
    <NewDraftScreen
      draft={draft}
      back={<BackButton go={go} label="All posts" />}
      title="New post"
      hint="A title, your text with photos if you like, and a cover photo for the journal. It stays a draft until you publish it."
      form={{ schema: newPostSchema, order: ORDER, open: OPEN, after }}
      submit="Save draft"
    />
  );
}

// ---------------------------------------------------------------------------------------------

function JournalApp() {
  const { route, go, dirtyRef } = useDraftRoutes('post', 'post');
  const photos = usePhotoLibrary();
  if (!route) return <p role="status">Loading…</p>;
  if (route.view === 'edit') return <PostEditor key={route.key} id={route.key} photos={photos} go={go} dirtyRef={dirtyRef} />;
  if (route.view === 'new') return <NewPost photos={photos} go={go} dirtyRef={dirtyRef} />;
  return <PostList go={go} />;
}

export default adminScreen('/admin/journal', 'Journal', JournalApp);
