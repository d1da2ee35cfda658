/**
 * The admin's "Pages" (issue 19), built for her phone: the list of pages, each page's words and
 * pictures as a form generated from its schema, Save draft / Preview / Publish in a bar that stays
 * at the bottom, the history of what was published with a one-step restore, and new pages from
 * a simple template. The server checks everything again; a save from a stale tab is refused and
 * her edits stay in the form.
 */
import { useCallback, useId, useMemo, useState, type FormEvent } from 'react';
import { adminScreen } from './AdminShell';
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
  type PageListItem,
} from '../../../contract/content.ts';
import { BackButton, DraftPending, DraftScreen, History, inPlace, NewDraftScreen } from './drafts/DraftParts';
import { useDraftEditor } from './drafts/useDraftEditor';
import { useDraftRoutes, type Go } from './drafts/useDraftRoutes';
import { useNewDraft } from './drafts/useNewDraft';
import { issuesByPath, pagesApi, previewUrl, refusalText } from './pages/api';
import { labelOf } from './pages/fields';
import { usePhotoLibrary, type PhotoLibrary } from './pages/photos';
import { SeoPreview } from './pages/SeoPreview';

/** Her own pages are mostly their sections: those start open. */
const OPEN_SECTIONS = ['sections'] as const;

/** "Published v3 · Draft changes". */
function stateLine(p: { publishedVersion: number | null; hasUnpublishedChanges: boolean }): string {
  return [p.publishedVersion !== null ? `Published v${p.publishedVersion}` : 'Not published', p.hasUnpublishedChanges ? 'Draft changes' : '']
    .filter(Boolean)
    .join(' · ');
}

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
        <PageCard key={p.slug} page={p} onOpen={() => void go({ view: 'edit', key: p.slug })} />
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
    await props.go({ view: 'edit', key: checked.data.slug }, { replace: true, force: true });
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
  const schema = schemaOfPage(slug);
  const editor = useDraftEditor({
    key: slug,
    noun: 'page',
    api: pagesApi,
    schema,
    previewUrl: previewUrl(slug),
    messages: PAGE_MESSAGES,
    publishedText: (p) => `Published as revision ${p.revision}. Visitors see it within seconds.`,
    stateLine,
    photos,
    dirtyRef,
  });
  const { detail, content } = editor;
  const pathOf = useCallback(() => detail?.path ?? `/${slug}`, [detail?.path, slug]);
  const after = useSeoAfter(schema, pathOf);
  const back = <BackButton go={go} label="All pages" />;
  if (!detail) return <DraftPending editor={editor} back={back} />;

  const custom = detail.kind === 'custom' || !isBuiltinSlug(slug);
  const title = isBuiltinSlug(slug) ? BUILTIN_TITLES[slug] : String((content as { title?: unknown })?.title || slug);
  return (
    <DraftScreen
      editor={editor}
      back={back}
      title={title}
      noun="page"
      path={detail.path}
      notPublic={`/${slug}`}
      data={{ 'data-page-editor': slug }}
      intro={<Placeholders />}
      form={{ schema, ...(custom ? { open: OPEN_SECTIONS } : {}), ...(after ? { after } : {}) }}
    >
      <History editor={editor} />
      {custom && (
        <PageSettings
          slug={slug}
          published={detail.publishedVersion !== null}
          dirty={editor.dirty}
          busy={editor.busy}
          go={go}
          onUnpublished={() => {
            editor.setMessage(`Unpublished: /${slug} now answers “page not found”.`);
            void editor.refreshState();
            void editor.loadRevisions();
          }}
        />
      )}
    </DraftScreen>
  );
}

// ---------------------------------------------------------------------------------------------
// A new page

const NEW_PAGE_ORDER = ['title', 'slug', 'description'] as const;
const newPageValue = () => ({ title: '', description: '', brand: 'yoga', sections: [{ markdown: '' }], inNavigation: false, inFooter: false });
const newPagePath = (v: Record<string, unknown>) => `/${typeof v.slug === 'string' && v.slug ? v.slug : slugify(String(v.title ?? '')) || 'your-page'}`;

function NewPage({ photos, go, dirtyRef }: { photos: PhotoLibrary; go: Go; dirtyRef: { current: boolean } }) {
  const draft = useNewDraft({
    schema: createPageBody,
    initial: newPageValue,
    create: pagesApi.create,
    sendingText: 'Creating the page…',
    refusedTitle: 'Page not created',
    onCreated: async (made) => {
      await go({ view: 'edit', key: made.slug }, { replace: true, force: true });
      await showAlert({ icon: 'success', title: 'Page created', text: 'It is a draft: preview it, then publish it when it is ready.' });
    },
    photos,
    dirtyRef,
  });
  const after = useSeoAfter(createPageBody, newPagePath);
  return (
    <NewDraftScreen
      draft={draft}
      back={<BackButton go={go} label="All pages" />}
      title="New page"
      hint="A title, a few sections of text with photos if you like, and an optional button at the end. It stays a draft until you publish it."
      form={{ schema: createPageBody, order: NEW_PAGE_ORDER, open: OPEN_SECTIONS, ...(after ? { after } : {}) }}
      submit="Create page"
    />
  );
}

// ---------------------------------------------------------------------------------------------

function PagesApp() {
  const { route, go, dirtyRef } = useDraftRoutes('page', 'page');
  const photos = usePhotoLibrary();
  if (!route) return <p role="status">Loading…</p>;
  if (route.view === 'edit') return <PageEditor key={route.key} slug={route.key} photos={photos} go={go} dirtyRef={dirtyRef} />;
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

export default adminScreen('/admin/pages', 'Pages', PagesApp);
