/**
 * A new draft's form (a page, a post): its slug follows the title until she types one of her
 * own, the form is checked before it is sent, and what the server refuses is marked on its field.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { showAlert } from '../../../lib/alert';
import { slugify } from '../../../../contract/content.ts';
import { issuesByPath, refusalText, type Answer } from '../pages/api';
import { pathKey, setIn, validateContent, type Path } from '../pages/fields';
import type { PhotoLibrary } from '../pages/photos';

export interface NewDraftConfig<C> {
  schema: z.ZodType;
  initial: () => Record<string, unknown>;
  create: (body: unknown) => Promise<Answer<C>>;
  /** The status while it is sent ("Creating the page…"). */
  sendingText: string;
  /** The dialog's title when it is refused ("Page not created"). */
  refusedTitle: string;
  /** Made: open it (the unsaved-changes guard is already off). */
  onCreated: (created: C) => Promise<void>;
  photos: PhotoLibrary;
  dirtyRef: { current: boolean };
}

export function useNewDraft<C>(config: NewDraftConfig<C>) {
  const { dirtyRef } = config;
  const headingId = useId();
  const formId = useId();
  const [value, setValue] = useState<Record<string, unknown>>(config.initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [shownErrors, setShownErrors] = useState(0);
  const [sending, setSending] = useState(false);
  const [message, setMessage] = useState('');
  // The slug follows the title until she types one of her own.
  const slugTyped = useRef(false);
  const { load: loadPhotos } = config.photos;
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

  function refuse(found: Record<string, string>) {
    setErrors(found);
    setShownErrors((n) => n + 1);
    setMessage('Not created: fix the fields marked in red.');
  }

  async function create(e: FormEvent) {
    e.preventDefault();
    if (sending) return;
    const checked = validateContent(config.schema, value);
    if (!checked.ok) return refuse(checked.errors);
    setSending(true);
    setMessage(config.sendingText);
    const res = await config.create(checked.data);
    setSending(false);
    if (res?.ok) {
      dirtyRef.current = false;
      await config.onCreated(res.data);
      return;
    }
    const byPath = issuesByPath(res);
    if (byPath) return refuse(byPath);
    setMessage('Not created.');
    await showAlert({ icon: 'error', title: config.refusedTitle, text: refusalText(res) });
  }

  return { headingId, formId, shownErrors, value, errors, onChange, photos: config.photos, sending, message, create };
}

export type NewDraft = ReturnType<typeof useNewDraft>;
