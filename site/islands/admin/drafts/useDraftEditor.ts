/**
 * One draft editor (issue 31): what the Pages and Journal editors share, and what the next one
 * (packages, gift-card designs, tasting quotes) reuses. It loads a draft, keeps her edits in the
 * form, saves them with the version she saw (a save from a stale tab is refused and her edits
 * stay), opens the preview, publishes, and restores a revision from the history. The screen
 * brings its schema, its calls and its words; drafts/DraftParts.tsx draws the bar and history.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { z } from 'zod';
import { confirmDialog, showAlert } from '../../../lib/alert';
import type { PageRevision } from '../../../../contract/content.ts';
import { issuesByPath, refusalText, type Answer } from '../pages/api';
import { pathKey, setIn, validateContent, type Path } from '../pages/fields';
import { photosInContent, type PhotoLibrary } from '../pages/photos';

/** What every draft has. */
export interface DraftDetail {
  content: unknown;
  version: number;
  publishedVersion: number | null;
  publishedAt: string | null;
  hasUnpublishedChanges: boolean;
}

type Published = { revision: number; publishedAt: string };

/** The calls for one kind of draft, by its key (a page's slug, a post's id). */
export interface DraftApi<D extends DraftDetail, P extends Published = Published> {
  get: (key: string) => Promise<Answer<D>>;
  save: (key: string, content: unknown, version: number) => Promise<Answer<Partial<D> & { version: number }>>;
  publish: (key: string, version?: number) => Promise<Answer<P>>;
  revisions: (key: string) => Promise<Answer<PageRevision[]>>;
  restore: (key: string, n: number) => Promise<Answer<{ revision: number }>>;
}

export interface DraftConfig<D extends DraftDetail, P extends Published> {
  key: string;
  /** 'page', 'post': said in "the page changed elsewhere", "become the post again". */
  noun: string;
  api: DraftApi<D, P>;
  schema: z.ZodType;
  previewUrl: string;
  messages: { notFound: string; stale: string };
  /** "Published as revision 4. …": what the status says after a publish. */
  publishedText: (published: P) => string;
  /** A refused publish marks the fields it names (a post's missing alt text). */
  publishMarksFields?: boolean;
  /** The status when nothing else is said ("Published v3 · Draft changes"). */
  stateLine: (detail: D) => string;
  photos: PhotoLibrary;
  /** Unsaved edits, for the leave-without-saving question. */
  dirtyRef: { current: boolean };
}

export function useDraftEditor<D extends DraftDetail, P extends Published>(config: DraftConfig<D, P>) {
  const { key, noun, api, schema, messages, photos, dirtyRef } = config;
  const headingId = useId();
  const formId = useId();
  const [detail, setDetail] = useState<D | null>(null);
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
  const { add: addPhotos, load: loadPhotos } = photos;

  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty, dirtyRef]);

  const load = useCallback(async () => {
    const res = await api.get(key);
    if (!res?.ok) return setMissing(res?.status === 404 ? messages.notFound : refusalText(res));
    setDetail(res.data);
    version.current = res.data.version;
    setContent(res.data.content);
    setErrors({});
    setDirty(false);
    edits.current = 0;
    addPhotos(photosInContent(res.data.content));
  }, [api, key, messages.notFound, addPhotos]);

  const loadRevisions = useCallback(async () => {
    const res = await api.revisions(key);
    setRevisions(res?.ok && Array.isArray(res.data) ? res.data : []);
  }, [api, key]);

  /** The draft's state (version, published revision, schedule…) without touching the form. */
  const refreshState = useCallback(async () => {
    const res = await api.get(key);
    if (!res?.ok) return;
    setDetail(res.data);
    version.current = res.data.version;
  }, [api, key]);

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
    const at = pathKey(path);
    setErrors((e) => {
      if (!(at in e)) return e;
      const { [at]: _gone, ...rest } = e;
      return rest;
    });
  }, []);

  /** One action at a time: `what` is the status while it runs. */
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
    // A problem with no field of its own (the draft as a whole) is said in a dialog.
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
    const res = await api.save(key, checked.data, version.current);
    if (res?.ok) {
      const saved = res.data;
      version.current = saved.version;
      setDetail((d) => d && { ...d, ...saved });
      // Typing went on while saving: that is still unsaved.
      if (edits.current === at) setDirty(false);
      setErrors({});
      setMessage('Draft saved.');
      return true;
    }
    // A 409 with issues is a slug another draft has; without, the draft changed elsewhere.
    const byPath = res?.status === 400 || res?.status === 409 ? issuesByPath(res) : null;
    if (byPath) {
      showErrors(byPath);
      setMessage('Not saved: fix the fields marked in red.');
      return false;
    }
    const stale = res?.status === 409;
    setMessage(stale ? `Not saved: the ${noun} changed elsewhere.` : 'Not saved.');
    await showAlert({ icon: 'error', title: 'Not saved', text: stale ? refusalText(res, messages.stale) : refusalText(res) });
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
        win.location.href = config.previewUrl;
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
      const res = await api.publish(key, version.current);
      if (!res?.ok) {
        setMessage('Not published.');
        const byPath = config.publishMarksFields ? issuesByPath(res) : null;
        if (byPath) showErrors(byPath);
        await showAlert({ icon: 'error', title: 'Not published', text: refusalText(res) });
        return;
      }
      const published = res.data;
      setDetail((d) => d && { ...d, publishedVersion: published.revision, publishedAt: published.publishedAt, hasUnpublishedChanges: false });
      setMessage(config.publishedText(published));
      await Promise.all([refreshState(), loadRevisions()]);
    });
  }

  async function restore(n: number) {
    const sure = await confirmDialog({
      title: `Restore revision ${n}?`,
      text: `Its words and pictures become the ${noun} again and are published now, as a new revision.${dirty ? ' Your unsaved changes in the form are lost.' : ''}`,
      confirmText: 'Restore',
    });
    if (!sure) return;
    await run('Restoring…', async () => {
      const res = await api.restore(key, n);
      if (!res?.ok) {
        await showAlert({ icon: 'error', title: 'Not restored', text: refusalText(res) });
        return;
      }
      await Promise.all([load(), loadRevisions()]);
      setMessage(`Revision ${n} restored and published as revision ${res.data.revision}.`);
    });
  }

  function onSave(e: { preventDefault: () => void }) {
    e.preventDefault();
    void run('Saving…', async () => void (await save()));
  }

  const status = busy ?? (message || (dirty ? 'Unsaved changes.' : detail ? config.stateLine(detail) : ''));
  return {
    key,
    headingId,
    formId,
    shownErrors,
    detail,
    missing,
    content,
    errors,
    onChange,
    photos,
    dirty,
    busy: busy !== null,
    status,
    previewBlocked,
    previewUrl: config.previewUrl,
    revisions,
    run,
    setMessage,
    refreshState,
    loadRevisions,
    onSave,
    preview,
    publish,
    restore,
  };
}

export type DraftEditor<D extends DraftDetail = DraftDetail> = ReturnType<typeof useDraftEditor<D, Published>>;
