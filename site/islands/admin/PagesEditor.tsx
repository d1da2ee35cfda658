/**
 * The admin's "Pages" (issue 19), built for her phone: the list of pages, each page's words and
 * pictures as a form generated from its schema, Save draft / Preview / Publish in a bar that stays
 * at the bottom, the history of what was published with a one-step restore, and new pages from
 * a simple template. The server checks everything again; a save from a stale tab is refused and
 * her edits stay in the form.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent, type MouseEvent, type ReactNode } from 'react';
import AdminShell from './AdminShell';
import { formatLosAngeles, useAdminList } from './admin-ui';
import { confirmDialog, showAlert } from '../../lib/alert';
import { check } from '../../../contract/check.ts';
import {
  BUILTIN_SLUGS,
  BUILTIN_TITLES,
  createPageBody,
  isBuiltinSlug,
  PAGE_MESSAGES,
  pageSlug,
  renamePageBody,
  schemaOfPage,
  SETTING_PLACEHOLDERS,
  slugify,
  type PageDetail,
  type PageListItem,
  type PageRevision,
} from '../../../contract/content.ts';
import { issuesByPath, pagesApi, previewUrl, refusalText } from './pages/api';
import { itemNoun, labelOf, pathKey, setIn, validateContent, type Path } from './pages/fields';
import { photosInContent, usePhotoLibrary, type PhotoLibrary } from './pages/photos';
import { SchemaForm, useFocusFirstError } from './pages/SchemaForm';
import { SeoPreview } from './pages/SeoPreview';

/** Her own pages are mostly their sections: those start open. */
const OPEN_SECTIONS = ['sections'] as const;

type Route = { view: 'list' } | { view: 'edit'; slug: string } | { view: 'new' };

function routeOf(search: string): Route {
  const q = new URLSearchParams(search);
  const slug = q.get('page');
  if (slug) return { view: 'edit', slug };
  return q.has('new') ? { view: 'new' } : { view: 'list' };
}
const hrefOf = (r: Route) => (r.view === 'edit' ? `?page=${encodeURIComponent(r.slug)}` : r.view === 'new' ? '?new' : window.location.pathname);

type Go = (route: Route, options?: { replace?: boolean; force?: boolean }) => Promise<void>;

/** "Published v3 · Draft changes". */
function stateLine(p: { publishedVersion: number | null; hasUnpublishedChanges: boolean }): string {
  return [p.publishedVersion !== null ? `Published v${p.publishedVersion}` : 'Not published', p.hasUnpublishedChanges ? 'Draft changes' : '']
    .filter(Boolean)
    .join(' · ');
}

/** A link that opens in place (this island) unless she asks for a new tab. */
const inPlace = (open: () => void) => (e: MouseEvent<HTMLAnchorElement>) => {
  if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
  e.preventDefault();
  open();
};

// ---------------------------------------------------------------------------------------------
// The list

function PageCard({ page, onOpen }: { page: PageListItem; onOpen: () => void }) {
  return (
    <li className="card page-card" data-page={page.slug}>
      <h3>
        <a href={`?page=${encodeURIComponent(page.slug)}`} onClick={inPlace(onOpen)}>
          {page.title}
        </a>
      </h3>
      <p className="page-card-path">
        {page.path ?? `/${page.slug} (not public)`}
        {page.brand ? ` · ${labelOf(page.brand)}` : ''}
      </p>
      <p className={page.hasUnpublishedChanges || page.publishedVersion === null ? 'page-badge page-badge-draft' : 'page-badge'}>{stateLine(page)}</p>
      <p className="muted page-card-date">Updated {formatLosAngeles(page.updatedAt)}</p>
    </li>
  );
}

function PageList({ go }: { go: Go }) {
  const { items } = useAdminList<PageListItem>('/api/admin/pages', 'Could not load the pages', 'Please check the connection and reload the page.');
  const custom = (items ?? []).filter((p) => p.kind === 'custom');
  // The site's pages in the order a visitor meets them; the parts of every page last.
  const rank = (slug: string) => (slug === 'site' ? 99 : BUILTIN_SLUGS.indexOf(slug as (typeof BUILTIN_SLUGS)[number]));
  const builtin = (items ?? []).filter((p) => p.kind === 'builtin').sort((a, b) => rank(a.slug) - rank(b.slug));
  const cards = (list: PageListItem[]) => (
    <ul className="page-cards">
      {list.map((p) => (
        <PageCard key={p.slug} page={p} onOpen={() => void go({ view: 'edit', slug: p.slug })} />
      ))}
    </ul>
  );
  return (
    <>
      <p className="pages-intro">Tap a page to change its words and pictures. Changes stay a draft, seen only here, until you publish them.</p>
      <p>
        <a className="button" href="?new" onClick={inPlace(() => void go({ view: 'new' }))}>
          New page
        </a>
      </p>
      {items === null ? (
        <p role="status">Loading…</p>
      ) : (
        <>
          <section aria-labelledby="pages-custom-heading">
            <h2 id="pages-custom-heading">Your pages</h2>
            {custom.length === 0 ? <p className="muted">None yet: “New page” makes one from a simple template.</p> : cards(custom)}
          </section>
          <section aria-labelledby="pages-builtin-heading">
            <h2 id="pages-builtin-heading">The site’s pages</h2>
            {cards(builtin)}
          </section>
        </>
      )}
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// One page

/** "faq.items.1.a" → "FAQ › FAQ item 2 › Answer". */
function pathWords(path: string): string {
  const parts = path.split('.');
  const words: string[] = [];
  parts.forEach((p, i) => {
    if (/^\d+$/.test(p)) words.push(`${itemNoun(parts[i - 1] ?? '', parts[i - 2])} ${Number(p) + 1}`);
    else if (p !== 'items' || !/^\d+$/.test(parts[i + 1] ?? '')) words.push(labelOf(p));
  });
  return words.join(' › ');
}

function changedText(r: PageRevision): string {
  if (r.restoredFrom !== null) return `Restored revision ${r.restoredFrom}.`;
  if (r.changed.length === 1 && r.changed[0] === 'created') return 'First version.';
  if (r.changed.length === 0) return 'No changes.';
  const shown = r.changed.slice(0, 4).map(pathWords);
  return `Changed: ${shown.join('; ')}${r.changed.length > 4 ? `; and ${r.changed.length - 4} more` : ''}.`;
}

/** The history of what was published, with a one-step restore (the journal's editor shows it too). */
export function History(props: { revisions: PageRevision[] | null; busy: boolean; onRestore: (n: number) => void }) {
  const id = useId();
  const { revisions } = props;
  return (
    <section className="admin-panel page-history" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>History</h3>
      <p className="field-hint">Every publish is kept. Restoring an earlier revision publishes it again, as a new revision.</p>
      {revisions === null ? (
        <p role="status">Loading…</p>
      ) : revisions.length === 0 ? (
        <p className="muted">Not published yet.</p>
      ) : (
        <ol className="revision-list">
          {revisions.map((r) => (
            <li key={r.n} className="revision" data-revision={r.n}>
              <p className="revision-head">
                <strong>Revision {r.n}</strong>
                {r.current && <span className="page-badge"> Live</span>}
              </p>
              <p className="muted">{formatLosAngeles(r.publishedAt)}</p>
              <p className="revision-changed">{changedText(r)}</p>
              {!r.current && (
                <button type="button" className="button button-quiet button-small" disabled={props.busy} onClick={() => props.onRestore(r.n)}>
                  Restore revision {r.n}
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Her own page's address and visibility: rename (a 301 stays behind), unpublish, delete. */
function PageSettings(props: { slug: string; published: boolean; dirty: boolean; busy: boolean; go: Go; onUnpublished: () => void }) {
  const id = useId();
  const [to, setTo] = useState(props.slug);
  const [error, setError] = useState('');

  async function rename(e: FormEvent) {
    e.preventDefault();
    if (props.dirty)
      return showAlert({ icon: 'info', title: 'Save the draft first', text: 'Your changes are not saved yet: save the draft, then change the address.' });
    const checked = check(renamePageBody, { slug: to });
    if (!checked.ok) return setError(checked.issues[0]?.message ?? checked.message);
    if (checked.data.slug === props.slug) return setError('That is already the page’s address.');
    setError('');
    const res = await pagesApi.rename(props.slug, checked.data.slug);
    if (!res?.ok) return setError(issuesByPath(res)?.slug ?? refusalText(res));
    await props.go({ view: 'edit', slug: checked.data.slug }, { replace: true, force: true });
    await showAlert({
      icon: 'success',
      title: 'Address changed',
      text: `The page is now at /${checked.data.slug}.${props.published ? ` Its old address /${props.slug} leads there.` : ''}`,
    });
  }

  async function unpublish() {
    const sure = await confirmDialog({
      title: 'Unpublish this page?',
      text: `Visitors to /${props.slug} will get “page not found” until you publish it again. Its draft and history stay.`,
      confirmText: 'Unpublish',
    });
    if (!sure) return;
    const res = await pagesApi.unpublish(props.slug);
    if (!res?.ok) return showAlert({ icon: 'error', title: 'Not unpublished', text: refusalText(res) });
    props.onUnpublished();
  }

  async function remove() {
    const sure = await confirmDialog({
      title: 'Delete this page?',
      text: `The page, its draft and its history are deleted; /${props.slug} will answer “page not found”. This can’t be undone.`,
    });
    if (!sure) return;
    const res = await pagesApi.remove(props.slug);
    if (!res?.ok) return showAlert({ icon: 'error', title: 'Not deleted', text: refusalText(res) });
    await props.go({ view: 'list' }, { force: true });
    await showAlert({ icon: 'success', title: 'Page deleted' });
  }

  return (
    <section className="admin-panel page-settings" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Address and visibility</h3>
      <form className="page-rename" onSubmit={(e) => void rename(e)} noValidate aria-labelledby={`${id}-rename`}>
        <div className="field">
          <label htmlFor={`${id}-slug`} id={`${id}-rename`}>
            Change the address
          </label>
          <span className="field-hint" id={`${id}-slug-hint`}>
            {pageSlug.description} The old address will lead to the new one.
          </span>
          <input
            id={`${id}-slug`}
            value={to}
            maxLength={80}
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={[error ? `${id}-slug-error` : '', `${id}-slug-hint`].filter(Boolean).join(' ')}
            onChange={(e) => setTo(e.target.value)}
          />
          {error && (
            <span className="field-error" id={`${id}-slug-error`}>
              {error}
            </span>
          )}
        </div>
        <p>
          <button type="submit" className="button button-small" disabled={props.busy}>
            Change address
          </button>
        </p>
      </form>
      <div className="row-actions">
        {props.published && (
          <button type="button" className="button button-quiet button-small" disabled={props.busy} onClick={() => void unpublish()}>
            Unpublish page
          </button>
        )}
        <button type="button" className="button danger button-small" disabled={props.busy} onClick={() => void remove()}>
          Delete page
        </button>
      </div>
    </section>
  );
}

/** The sticky bar at the bottom of the screen: what state the page is in, and its actions. */
export function ActionBar(props: { status: string; children: ReactNode; extra?: ReactNode }) {
  return (
    <div className="pages-actionbar" role="group" aria-label="Page actions">
      <p className="pages-actionbar-status" role="status">
        {props.status}
      </p>
      {props.extra}
      <div className="pages-actionbar-buttons">{props.children}</div>
    </div>
  );
}

/** A search-result preview after a page's SEO fields, when the page has a title and a description. */
function useSeoAfter(schema: ReturnType<typeof schemaOfPage> | typeof createPageBody, pathOf: (value: Record<string, unknown>) => string) {
  return useMemo(() => {
    const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
    if (!('title' in shape && 'description' in shape)) return undefined;
    const anchor = 'ogImage' in shape ? 'ogImage' : 'description';
    return {
      [anchor]: (value: unknown) => {
        const v = (value ?? {}) as Record<string, unknown>;
        const str = (x: unknown) => (typeof x === 'string' ? x : '');
        return <SeoPreview title={str(v.seoTitle) || str(v.title)} description={str(v.description)} path={pathOf(v)} />;
      },
    };
  }, [schema, pathOf]);
}

function PageEditor({ slug, photos, go, dirtyRef }: { slug: string; photos: PhotoLibrary; go: Go; dirtyRef: { current: boolean } }) {
  const headingId = useId();
  const formId = useId();
  const schema = schemaOfPage(slug);
  const [detail, setDetail] = useState<PageDetail | null>(null);
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
  // The draft's version as last seen: a save sends it, a publish names it (read after an await, so not from state).
  const version = useRef(0);
  const busyRef = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const { add: addPhotos, load: loadPhotos } = photos;
  useFocusFirstError(formRef, shownErrors);

  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty, dirtyRef]);

  const load = useCallback(async () => {
    const res = await pagesApi.get(slug);
    if (!res?.ok) return setMissing(res?.status === 404 ? PAGE_MESSAGES.notFound : refusalText(res));
    setDetail(res.data);
    version.current = res.data.version;
    setContent(res.data.content);
    setErrors({});
    setDirty(false);
    edits.current = 0;
    addPhotos(photosInContent(res.data.content));
  }, [slug, addPhotos]);

  const loadRevisions = useCallback(async () => {
    const res = await pagesApi.revisions(slug);
    setRevisions(res?.ok && Array.isArray(res.data) ? res.data : []);
  }, [slug]);

  /** The page's state (version, published revision) without touching the form. */
  const refreshState = useCallback(async () => {
    const res = await pagesApi.get(slug);
    if (!res?.ok) return;
    setDetail(res.data);
    version.current = res.data.version;
  }, [slug]);

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

  const pathOf = useCallback(() => detail?.path ?? `/${slug}`, [detail?.path, slug]);
  const after = useSeoAfter(schema, pathOf);

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
    // A problem with no field of its own (the page as a whole) is said in a dialog.
    const loose = Object.entries(found).filter(([k]) => k === '' || k === 'version');
    if (loose.length) void showAlert({ icon: 'error', title: 'Not saved', text: loose.map(([, m]) => m).join(' ') });
  }

  /** Saves the draft; true when saved. Her edits stay in the form whatever happens. */
  async function save(): Promise<boolean> {
    if (!detail) return false;
    const checked = validateContent(schema, content);
    if (!checked.ok) {
      showErrors(checked.errors);
      setMessage('Not saved: fix the fields marked in red.');
      return false;
    }
    const at = edits.current;
    const res = await pagesApi.save(slug, checked.data, version.current);
    if (res?.ok) {
      version.current = res.data.version;
      setDetail((d) => d && { ...d, version: res.data.version, hasUnpublishedChanges: res.data.hasUnpublishedChanges });
      // Typing went on while saving: that is still unsaved.
      if (edits.current === at) setDirty(false);
      setErrors({});
      setMessage('Draft saved.');
      return true;
    }
    if (res?.status === 409) {
      setMessage('Not saved: the page changed elsewhere.');
      await showAlert({ icon: 'error', title: 'Not saved', text: refusalText(res, PAGE_MESSAGES.stale) });
      return false;
    }
    const byPath = res?.status === 400 ? issuesByPath(res) : null;
    if (byPath) {
      showErrors(byPath);
      setMessage('Not saved: fix the fields marked in red.');
      return false;
    }
    setMessage('Not saved.');
    await showAlert({ icon: 'error', title: 'Not saved', text: refusalText(res) });
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
        win.location.href = previewUrl(slug);
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
      const res = await pagesApi.publish(slug, version.current);
      if (!res?.ok) {
        setMessage('Not published.');
        await showAlert({ icon: 'error', title: 'Not published', text: refusalText(res) });
        return;
      }
      setDetail((d) => d && { ...d, publishedVersion: res.data.revision, publishedAt: res.data.publishedAt, hasUnpublishedChanges: false });
      setMessage(`Published as revision ${res.data.revision}. Visitors see it within seconds.`);
      await Promise.all([refreshState(), loadRevisions()]);
    });
  }

  async function restore(n: number) {
    const sure = await confirmDialog({
      title: `Restore revision ${n}?`,
      text: `Its words and pictures become the page again and are published now, as a new revision.${dirty ? ' Your unsaved changes in the form are lost.' : ''}`,
      confirmText: 'Restore',
    });
    if (!sure) return;
    await run('Restoring…', async () => {
      const res = await pagesApi.restore(slug, n);
      if (!res?.ok) {
        await showAlert({ icon: 'error', title: 'Not restored', text: refusalText(res) });
        return;
      }
      await Promise.all([load(), loadRevisions()]);
      setMessage(`Revision ${n} restored and published as revision ${res.data.revision}.`);
    });
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

  const custom = detail.kind === 'custom' || !isBuiltinSlug(slug);
  const title = isBuiltinSlug(slug) ? BUILTIN_TITLES[slug] : String((content as { title?: unknown })?.title || slug);
  const status = busy ?? (message || (dirty ? 'Unsaved changes.' : stateLine(detail)));
  return (
    <div className="page-editor" data-page-editor={slug}>
      <BackButton go={go} />
      <h2 id={headingId}>{title}</h2>
      <p className="page-card-path">
        {detail.path ? (
          <a href={detail.path} target="_blank" rel="noopener">
            {detail.path}
            <span className="sr-only"> (the live page, in a new tab)</span>
          </a>
        ) : (
          `/${slug} (not public yet)`
        )}
      </p>
      <Placeholders />
      <form ref={formRef} id={formId} className="page-form" aria-labelledby={headingId} noValidate onSubmit={onSave}>
        <SchemaForm
          schema={schema}
          value={content}
          errors={errors}
          onChange={onChange}
          photos={photos}
          {...(custom ? { open: OPEN_SECTIONS } : {})}
          {...(after ? { after } : {})}
        />
      </form>
      <History revisions={revisions} busy={busy !== null} onRestore={(n) => void restore(n)} />
      {custom && (
        <PageSettings
          slug={slug}
          published={detail.publishedVersion !== null}
          dirty={dirty}
          busy={busy !== null}
          go={go}
          onUnpublished={() => {
            setMessage(`Unpublished: /${slug} now answers “page not found”.`);
            void refreshState();
            void loadRevisions();
          }}
        />
      )}
      <ActionBar
        status={status}
        extra={
          previewBlocked && (
            <p className="pages-actionbar-link">
              <a href={previewUrl(slug)} target="_blank" rel="noopener">
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

function BackButton({ go }: { go: Go }) {
  return (
    <p className="page-back">
      <a className="button button-quiet button-small" href="?" onClick={inPlace(() => void go({ view: 'list' }))}>
        <span aria-hidden="true">← </span>All pages
      </a>
    </p>
  );
}

// ---------------------------------------------------------------------------------------------
// A new page

const NEW_PAGE_ORDER = ['title', 'slug', 'description'] as const;

function NewPage({ photos, go, dirtyRef }: { photos: PhotoLibrary; go: Go; dirtyRef: { current: boolean } }) {
  const headingId = useId();
  const formId = useId();
  const [value, setValue] = useState<Record<string, unknown>>(() => ({
    title: '',
    description: '',
    brand: 'yoga',
    sections: [{ markdown: '' }],
    inNavigation: false,
    inFooter: false,
  }));
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
        if (key === 'title' && !slugTyped.current) {
          const slug = slugify(typeof v === 'string' ? v : '');
          next = setIn(next, ['slug'], slug || undefined) as Record<string, unknown>;
        }
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

  const pathOf = useCallback(
    (v: Record<string, unknown>) => `/${typeof v.slug === 'string' && v.slug ? v.slug : slugify(String(v.title ?? '')) || 'your-page'}`,
    [],
  );
  const after = useSeoAfter(createPageBody, pathOf);

  async function create(e: FormEvent) {
    e.preventDefault();
    if (sending) return;
    const checked = validateContent(createPageBody, value);
    if (!checked.ok) {
      setErrors(checked.errors);
      setShownErrors((n) => n + 1);
      setMessage('Not created: fix the fields marked in red.');
      return;
    }
    setSending(true);
    setMessage('Creating the page…');
    const res = await pagesApi.create(checked.data);
    setSending(false);
    if (res?.ok) {
      dirtyRef.current = false;
      await go({ view: 'edit', slug: res.data.slug }, { replace: true, force: true });
      await showAlert({ icon: 'success', title: 'Page created', text: 'It is a draft: preview it, then publish it when it is ready.' });
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
    await showAlert({ icon: 'error', title: 'Page not created', text: refusalText(res) });
  }

  return (
    <div className="page-editor">
      <BackButton go={go} />
      <h2 id={headingId}>New page</h2>
      <p className="field-hint">
        A title, a few sections of text with photos if you like, and an optional button at the end. It stays a draft until you publish it.
      </p>
      <form ref={formRef} id={formId} className="page-form" aria-labelledby={headingId} noValidate onSubmit={(e) => void create(e)}>
        <SchemaForm
          schema={createPageBody}
          value={value}
          errors={errors}
          onChange={onChange}
          photos={photos}
          order={NEW_PAGE_ORDER}
          open={OPEN_SECTIONS}
          {...(after ? { after } : {})}
        />
      </form>
      <ActionBar status={message}>
        <button type="submit" form={formId} className="button" disabled={sending}>
          Create page
        </button>
      </ActionBar>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------

function PagesApp() {
  const [route, setRoute] = useState<Route | null>(null);
  const dirtyRef = useRef(false);
  const photos = usePhotoLibrary();

  useEffect(() => {
    setRoute(routeOf(window.location.search));
    const onPop = () => {
      dirtyRef.current = false;
      setRoute(routeOf(window.location.search));
    };
    // Unsaved changes: the browser asks before the tab is closed or reloaded.
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
        text: 'Your changes to this page are not saved yet.',
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
  if (route.view === 'edit') return <PageEditor key={route.slug} slug={route.slug} photos={photos} go={go} dirtyRef={dirtyRef} />;
  if (route.view === 'new') return <NewPage photos={photos} go={go} dirtyRef={dirtyRef} />;
  return <PageList go={go} />;
}

/** What her words can show from Settings (issue 30): written where she types the placeholder, so a FAQ never disagrees with the rule. */
function Placeholders() {
  return (
    <details className="field-hint page-placeholders">
      <summary>Words that follow your settings</summary>
      <ul>
        {Object.entries(SETTING_PLACEHOLDERS).map(([key, p]) => (
          <li key={key}>
            <code>{key}</code>: {p.help}
          </li>
        ))}
      </ul>
    </details>
  );
}

export default function PagesEditor() {
  return (
    <AdminShell current="/admin/pages" title="Pages">
      {() => <PagesApp />}
    </AdminShell>
  );
}
