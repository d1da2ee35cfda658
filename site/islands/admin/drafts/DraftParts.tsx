/**
 * What a draft editor's screens are drawn with (issue 31): the sticky action bar, the history
 * with its one-step restore, the way back to the list, and the frames of a draft's screen and of
 * a new draft's. The logic is in useDraftEditor / useNewDraft; the screen brings its words.
 */
import { useId, useRef, type ComponentProps, type MouseEvent, type ReactNode } from 'react';
import { formatLosAngeles } from '../admin-ui';
import type { PageRevision } from '../../../../contract/content.ts';
import { itemNoun, labelOf } from '../pages/fields';
import { SchemaForm, useFocusFirstError } from '../pages/SchemaForm';
import type { DraftDetail, DraftEditor } from './useDraftEditor';
import type { Go } from './useDraftRoutes';
import type { NewDraft } from './useNewDraft';
import { Listing } from '../../Listing';

/** A link that opens in place (this island) unless she asks for a new tab. */
export const inPlace = (open: () => void) => (e: MouseEvent<HTMLAnchorElement>) => {
  if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
  e.preventDefault();
  open();
};

/** "← All pages": back to the list. */
export function BackButton({ go, label }: { go: Go; label: string }) {
  return (
    <p className="page-back">
      <a className="button button-quiet button-small" href="?" onClick={inPlace(() => void go({ view: 'list' }))}>
        <span aria-hidden="true">← </span>
        {label}
      </a>
    </p>
  );
}

/** The sticky bar at the bottom of the screen: what state the draft is in, and its actions. */
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

/** Save draft / Preview / Publish, with the preview's link when the browser blocked its tab. */
export function DraftActionBar({ editor }: { editor: DraftEditor }) {
  return (
    <ActionBar
      status={editor.status}
      extra={
        editor.previewBlocked && (
          <p className="pages-actionbar-link">
            <a href={editor.previewUrl} target="_blank" rel="noopener">
              Open the preview<span className="sr-only"> (new tab)</span>
            </a>
          </p>
        )
      }
    >
      <button type="submit" form={editor.formId} className="button button-quiet" disabled={editor.busy}>
        Save draft
      </button>
      <button type="button" className="button button-quiet" disabled={editor.busy} onClick={editor.preview}>
        Preview
      </button>
      <button type="button" className="button" disabled={editor.busy} onClick={editor.publish}>
        Publish
      </button>
    </ActionBar>
  );
}

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

/** The history of what was published, with a one-step restore. */
export function History({ editor }: { editor: DraftEditor }) {
  const id = useId();
  const { revisions } = editor;
  return (
    <section className="admin-panel page-history" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>History</h3>
      <p className="field-hint">Every publish is kept. Restoring an earlier revision publishes it again, as a new revision.</p>
      <Listing items={revisions} empty={<p className="muted">Not published yet.</p>}>
        {(revisions) => (
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
                  <button type="button" className="button button-quiet button-small" disabled={editor.busy} onClick={() => void editor.restore(r.n)}>
                    Restore revision {r.n}
                  </button>
                )}
              </li>
            ))}
          </ol>
        )}
      </Listing>
    </section>
  );
}

type FormShape = Omit<ComponentProps<typeof SchemaForm>, 'value' | 'errors' | 'onChange' | 'photos'>;

/** Before the draft is here: "Loading…", or why it can't be (with the way back). */
export function DraftPending({ editor, back }: { editor: DraftEditor; back: ReactNode }) {
  if (!editor.missing) return <p role="status">Loading…</p>;
  return (
    <>
      {back}
      <p role="alert">{editor.missing}</p>
    </>
  );
}

/** A draft's screen: its title and address, the form, the screen's own panels, the action bar. */
export function DraftScreen<D extends DraftDetail>(props: {
  editor: DraftEditor<D>;
  back: ReactNode;
  title: string;
  /** 'page', 'post': "(the live post, in a new tab)". */
  noun: string;
  /** Its public address, or where it will be ("/blog/my-post (not public yet)"). */
  path: string | null;
  notPublic: string;
  data: Record<`data-${string}`, string>;
  intro?: ReactNode;
  form: FormShape;
  children: ReactNode;
}) {
  const { editor } = props;
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, editor.shownErrors);
  return (
    <div className="page-editor" {...props.data}>
      {props.back}
      <h2 id={editor.headingId}>{props.title}</h2>
      <p className="page-card-path">
        {props.path ? (
          <a href={props.path} target="_blank" rel="noopener">
            {props.path}
            <span className="sr-only"> (the live {props.noun}, in a new tab)</span>
          </a>
        ) : (
          `${props.notPublic} (not public yet)`
        )}
      </p>
      {props.intro}
      <form ref={formRef} id={editor.formId} className="page-form" aria-labelledby={editor.headingId} noValidate onSubmit={editor.onSave}>
        <SchemaForm {...props.form} value={editor.content} errors={editor.errors} onChange={editor.onChange} photos={editor.photos} />
      </form>
      {props.children}
      <DraftActionBar editor={editor as DraftEditor} />
    </div>
  );
}

/** A new draft's screen: what it is, its form, and the one button that makes it. */
export function NewDraftScreen(props: { draft: NewDraft; back: ReactNode; title: string; hint: string; form: FormShape; submit: string }) {
  const { draft } = props;
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, draft.shownErrors);
  return (
    <div className="page-editor">
      {props.back}
      <h2 id={draft.headingId}>{props.title}</h2>
      <p className="field-hint">{props.hint}</p>
      <form ref={formRef} id={draft.formId} className="page-form" aria-labelledby={draft.headingId} noValidate onSubmit={(e) => void draft.create(e)}>
        <SchemaForm {...props.form} value={draft.value} errors={draft.errors} onChange={draft.onChange} photos={draft.photos} />
      </form>
      <ActionBar status={draft.message}>
        <button type="submit" form={draft.formId} className="button" disabled={draft.sending}>
          {props.submit}
        </button>
      </ActionBar>
    </div>
  );
}
