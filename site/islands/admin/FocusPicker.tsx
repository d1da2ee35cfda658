import { useState, type MouseEvent } from 'react';
import { request } from '../../lib/http';
import { IMAGE_URL_PREFIX, type FocusPoint, type ImageUploadedView, type PictureView } from '../../../contract/images.ts';

interface Props {
  picture: PictureView;
  /** What the photo is, for the controls' names ("photo 2", "Sea Salt Caramel Tin"). */
  label: string;
  onChanged: (picture: PictureView) => void;
}

/** Her choices besides a tap on the photo: the cut keeps the photo's whole width, so only the height moves. */
const PLACES: { name: string; y: number }[] = [
  { name: 'Top', y: 0.15 },
  { name: 'Middle', y: 0.5 },
  { name: 'Bottom', y: 0.85 },
];

/**
 * Her focal point on a portrait or square photo (issue 25): a landscape box (a card, a slide, the
 * cart) shows the photo's 4:3 cut around it. A tap on the photo, or Top / Middle / Bottom, sets it
 * (PUT /api/admin/images/{id}/focus); "Automatic" gives the choice back to the pipeline. Shown
 * only for photos that have a cut.
 */
export default function FocusPicker({ picture, label, onChanged }: Props) {
  const [status, setStatus] = useState('');
  const focus = picture.focus ?? null;
  if (!picture.crop) return null;
  const id = picture.src.slice(IMAGE_URL_PREFIX.length);

  async function save(next: FocusPoint | null) {
    setStatus('Saving the focal point…');
    try {
      const res = await request<ImageUploadedView>('PUT', `/api/admin/images/${encodeURIComponent(id)}/focus`, { body: { focus: next }, session: 'admin' });
      if (!res.ok) return setStatus(res.data.message || 'Could not save the focal point.');
      onChanged(res.data.picture);
      setStatus('Focal point saved: the pages show the new cut.');
    } catch {
      setStatus('The server could not be reached. Please try again.');
    }
  }

  function tap(e: MouseEvent<HTMLButtonElement>) {
    // A press from the keyboard has no position: the named places below are for it.
    if (e.detail === 0) return;
    const box = e.currentTarget.getBoundingClientRect();
    const clamp = (v: number) => Math.min(1, Math.max(0, Math.round(v * 100) / 100));
    void save({ x: clamp((e.clientX - box.left) / box.width), y: clamp((e.clientY - box.top) / box.height) });
  }

  return (
    <div className="focus-picker">
      <span className="field-hint">In wide boxes (cards, slides, the cart) this photo is cut to landscape. Tap the part that must show.</span>
      <button type="button" className="focus-area" onClick={tap} aria-label={`Focal point of ${label}: tap the part that must show`}>
        <img src={picture.src} srcSet={picture.webp} sizes="8rem" width={picture.width} height={picture.height} alt="" loading="lazy" decoding="async" />
        {focus && <span className="focus-mark" style={{ left: `${focus.x * 100}%`, top: `${focus.y * 100}%` }} aria-hidden="true" />}
      </button>
      <div className="row-actions">
        {PLACES.map((p) => (
          <button key={p.name} type="button" className="button button-quiet button-small" onClick={() => void save({ x: 0.5, y: p.y })}>
            {p.name}
            <span className="sr-only"> of {label}</span>
          </button>
        ))}
        <button type="button" className="button button-quiet button-small" aria-pressed={focus === null} onClick={() => void save(null)}>
          Automatic<span className="sr-only"> cut of {label}</span>
        </button>
      </div>
      <span aria-live="polite" className="field-hint">
        {status}
      </span>
    </div>
  );
}
