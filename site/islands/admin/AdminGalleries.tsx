import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import AdminShell from './AdminShell';
import { confirmAndDelete } from './admin-ui';
import Picture from '../Picture';
import FocusPicker from './FocusPicker';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import { uploadWithProgress } from '../../lib/upload';
import { check } from '../../../contract/check.ts';
import {
  GALLERIES,
  GALLERY_TITLES,
  altText,
  type Gallery,
  type GalleryPhotoSavedView,
  type GalleryPhotoView,
  type GalleryView,
} from '../../../contract/galleries.ts';
import { IMAGE_ACCEPT, IMAGE_MAX_MB, photoRefusal } from '../../../contract/images.ts';
import { TextInput } from '../Field';
import { Listing } from '../Listing';

const THUMB_SIZES = '10rem';

/** A chosen file waiting for its alt text and its upload. */
interface Pending {
  key: string;
  file: File;
  alt: string;
  /** 0..1 while sending; null before. */
  progress: number | null;
  error: string;
}

/** One photo of the list: its alt text (edited in place), move up/down, delete. */
function PhotoRow(props: {
  gallery: Gallery;
  photo: GalleryPhotoView;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onSaved: (photo: GalleryPhotoView) => void;
  onDeleted: (id: string) => void;
  busy: boolean;
}) {
  const id = useId();
  const { photo, index, count, gallery } = props;
  const [alt, setAlt] = useState(photo.alt);
  const [status, setStatus] = useState('');
  const label = `photo ${index + 1}`;

  async function save(e: FormEvent) {
    e.preventDefault();
    const checked = check(altText, alt);
    if (!checked.ok) return setStatus(checked.issues[0]?.message ?? checked.message);
    setStatus('Saving…');
    try {
      const res = await request<GalleryPhotoSavedView>('PUT', `/api/admin/galleries/${gallery}/photos/${encodeURIComponent(photo._id)}`, {
        body: { alt: checked.data },
        session: 'admin',
      });
      if (!res.ok) return setStatus(res.data.message ?? 'Not saved. Please try again.');
      props.onSaved(res.data.photo);
      setStatus('Saved.');
    } catch {
      setStatus('The server could not be reached. Please try again.');
    }
  }

  async function remove() {
    if (
      !(await confirmAndDelete(
        `/api/admin/galleries/${gallery}/photos/${encodeURIComponent(photo._id)}`,
        'Could not delete the photo.',
        `Delete ${label} (“${photo.alt}”) from the slideshow?`,
      ))
    )
      return;
    props.onDeleted(photo._id);
  }

  return (
    <li className="card gallery-photo" data-gallery-photo={photo._id}>
      <div>
        <Picture picture={photo.picture} alt={photo.alt} sizes={THUMB_SIZES} box="landscape" />
        <FocusPicker picture={photo.picture} label={label} onChanged={(picture) => props.onSaved({ ...photo, picture })} />
      </div>
      <form className="gallery-photo-fields" onSubmit={(e) => void save(e)} noValidate>
        <TextInput id={`${id}-alt`} label={`Alt text of ${label}`} value={alt} onChange={(e) => setAlt(e.target.value)} required maxLength={300} />
        <div className="row-actions">
          <button type="submit" className="button button-small">
            Save alt text<span className="sr-only"> of {label}</span>
          </button>
          <button
            type="button"
            className="button button-quiet button-small"
            disabled={props.busy || index === 0}
            onClick={() => props.onMove(index, index - 1)}
          >
            Move up<span className="sr-only"> {label}</span>
          </button>
          <button
            type="button"
            className="button button-quiet button-small"
            disabled={props.busy || index === count - 1}
            onClick={() => props.onMove(index, index + 1)}
          >
            Move down<span className="sr-only"> {label}</span>
          </button>
          <button type="button" className="button danger button-small" onClick={() => void remove()}>
            Delete<span className="sr-only"> {label}</span>
          </button>
        </div>
        <p className="product-status" role="status">
          {status}
        </p>
      </form>
    </li>
  );
}

/** One slideshow: its photos in order, and the form that adds several at once. */
function GalleryPanel({ gallery }: { gallery: Gallery }) {
  const id = useId();
  const [photos, setPhotos] = useState<GalleryPhotoView[] | null>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const [uploading, setUploading] = useState(false);
  const [ordering, setOrdering] = useState(false);
  const [status, setStatus] = useState('');

  const load = useCallback(async () => {
    try {
      const res = await request<GalleryView>('GET', `/api/admin/galleries/${gallery}`, { session: 'admin' });
      if (!res.ok) throw new Error();
      setPhotos(res.data.photos);
    } catch {
      setPhotos([]);
      await showAlert({ icon: 'error', title: 'Failed to fetch the slideshow.', text: 'Please reload the page.' });
    }
  }, [gallery]);
  useEffect(() => void load(), [load]);

  async function choose(input: HTMLInputElement) {
    const files = [...(input.files ?? [])];
    input.value = '';
    const refused: string[] = [];
    const chosen: Pending[] = [];
    for (const file of files) {
      const refusal = photoRefusal(file);
      if (refusal) refused.push(`${file.name}: ${refusal}`);
      else chosen.push({ key: `${file.name}-${file.size}-${Math.random()}`, file, alt: '', progress: null, error: '' });
    }
    setPending((p) => [...p, ...chosen]);
    if (refused.length > 0) await showAlert({ icon: 'error', title: 'Some photos were not added', text: refused.join('\n') });
  }

  const update = (key: string, change: Partial<Pending>) => setPending((list) => list.map((p) => (p.key === key ? { ...p, ...change } : p)));

  async function uploadAll(e: FormEvent) {
    e.preventDefault();
    // Alt text is required: nothing is sent while a photo lacks it.
    let missing = false;
    for (const p of pending) {
      const checked = check(altText, p.alt);
      if (!checked.ok) {
        missing = true;
        update(p.key, { error: checked.issues[0]?.message ?? checked.message });
      }
    }
    if (missing) return setStatus('Every photo needs its alt text: describe it for visitors who cannot see it.');
    setUploading(true);
    let done = 0;
    // One at a time: each shows its own progress, and the server encodes one photo at a time.
    for (const p of pending) {
      setStatus(`Uploading ${done + 1} of ${pending.length}…`);
      const form = new FormData();
      form.append('alt', p.alt.trim());
      form.append('file', p.file);
      update(p.key, { progress: 0, error: '' });
      try {
        const res = await uploadWithProgress<GalleryPhotoSavedView>(
          `/api/admin/galleries/${gallery}/photos`,
          form,
          (f) => update(p.key, { progress: f }),
          `/api/admin/galleries/${gallery}`,
        );
        if (!res.ok) {
          update(p.key, { progress: null, error: res.data.message ?? 'Not uploaded. Please try again.' });
          continue;
        }
        done++;
        setPhotos((list) => [...(list ?? []), res.data.photo]);
        setPending((list) => list.filter((x) => x.key !== p.key));
      } catch {
        update(p.key, { progress: null, error: 'The upload did not reach the server. Please try again.' });
      }
    }
    setUploading(false);
    setStatus(`${done} photo${done === 1 ? '' : 's'} added.`);
  }

  async function move(from: number, to: number) {
    if (!photos || to < 0 || to >= photos.length) return;
    const next = [...photos];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    const before = photos;
    setPhotos(next);
    setOrdering(true);
    try {
      const res = await request<GalleryView>('PUT', `/api/admin/galleries/${gallery}/order`, { body: { ids: next.map((p) => p._id) }, session: 'admin' });
      if (!res.ok) throw new Error(res.data.message);
      setPhotos(res.data.photos);
      setStatus(`Moved photo ${from + 1} to place ${to + 1}.`);
    } catch (err) {
      setPhotos(before);
      await showAlert({ icon: 'error', title: 'Order not saved', text: (err instanceof Error && err.message) || 'Please try again.' });
    } finally {
      setOrdering(false);
    }
  }

  const title = GALLERY_TITLES[gallery];
  return (
    <section className="admin-panel" aria-labelledby={`${id}-heading`} data-gallery={gallery}>
      <h2 id={`${id}-heading`}>{title}</h2>
      <Listing items={photos} empty="No photos yet: the page shows its illustrations.">
        {(photos) => (
          <ol className="gallery-photos" aria-label={`${title}, in order`}>
            {photos.map((p, i) => (
              <PhotoRow
                key={p._id}
                gallery={gallery}
                photo={p}
                index={i}
                count={photos.length}
                busy={ordering}
                onMove={(from, to) => void move(from, to)}
                onSaved={(saved) => setPhotos((list) => (list ?? []).map((x) => (x._id === saved._id ? saved : x)))}
                onDeleted={(gone) => setPhotos((list) => (list ?? []).filter((x) => x._id !== gone))}
              />
            ))}
          </ol>
        )}
      </Listing>

      <form className="gallery-add" onSubmit={(e) => void uploadAll(e)} noValidate>
        <h3>Add photos to the {title.toLowerCase()}</h3>
        <TextInput
          id={`${id}-files`}
          label="Choose photos"
          hint={<>JPEG, PNG, WebP or AVIF, at most {IMAGE_MAX_MB} MB each; several at once. iPhone HEIC photos: send them as JPEG.</>}
          type="file"
          multiple
          accept={IMAGE_ACCEPT}
          disabled={uploading}
          onChange={(e) => void choose(e.target)}
        />
        {pending.length > 0 && (
          <ul className="plain-list gallery-pending">
            {pending.map((p, i) => (
              <li key={p.key} className="field">
                <label htmlFor={`${id}-pending-${i}`}>Alt text for {p.file.name}</label>
                <input
                  id={`${id}-pending-${i}`}
                  value={p.alt}
                  required
                  maxLength={300}
                  disabled={uploading}
                  aria-invalid={p.error ? true : undefined}
                  aria-describedby={p.error ? `${id}-pending-${i}-error` : undefined}
                  onChange={(e) => update(p.key, { alt: e.target.value, error: '' })}
                />
                {p.progress !== null && (
                  <progress max={1} value={p.progress} aria-label={`Upload of ${p.file.name}`}>
                    {Math.round(p.progress * 100)}%
                  </progress>
                )}
                {p.error && (
                  <span className="admin-error" id={`${id}-pending-${i}-error`}>
                    {p.error}
                  </span>
                )}
                <div>
                  <button
                    type="button"
                    className="button button-quiet button-small"
                    disabled={uploading}
                    onClick={() => setPending((list) => list.filter((x) => x.key !== p.key))}
                  >
                    Remove<span className="sr-only"> {p.file.name}</span> from the upload
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
        <p>
          <button type="submit" className="button" disabled={uploading || pending.length === 0}>
            {uploading ? 'Uploading…' : `Upload ${pending.length || ''} photo${pending.length === 1 ? '' : 's'}`.replace('  ', ' ')}
          </button>
        </p>
        <p className="product-status" role="status">
          {status}
        </p>
      </form>
    </section>
  );
}

export default function AdminGalleries() {
  return (
    <AdminShell current="/admin/galleries" title="Galleries">
      {() => (
        <>
          {GALLERIES.map((g) => (
            <GalleryPanel key={g} gallery={g} />
          ))}
        </>
      )}
    </AdminShell>
  );
}
