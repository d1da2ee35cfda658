import { useEffect, useRef, useState } from 'react';

/** SPEC.md section 9: the signature canvas is 500 by 200. */
export const SIGNATURE_WIDTH = 500;
export const SIGNATURE_HEIGHT = 200;

/**
 * Draw with mouse, pen or finger; Save hands the PNG data URL to the form, Clear starts over.
 * The canvas keeps its 500 × 200 drawing size when CSS shrinks it on a small screen. With
 * `autoSave` (the intake, issue 30) each stroke's end hands the drawing over: no Save press.
 */
export default function SignaturePad(props: { onSave: (dataUrl: string | null) => void; saved: boolean; autoSave?: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [empty, setEmpty] = useState(true);

  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, SIGNATURE_WIDTH, SIGNATURE_HEIGHT);
    ctx.lineWidth = 2.5;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#111';
  }, []);

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - r.left) / r.width) * SIGNATURE_WIDTH, y: ((e.clientY - r.top) / r.height) * SIGNATURE_HEIGHT };
  };

  return (
    <div className="signature">
      <canvas
        ref={canvas}
        width={SIGNATURE_WIDTH}
        height={SIGNATURE_HEIGHT}
        className="signature-canvas"
        aria-label="Signature area: draw your signature with a mouse, pen or finger"
        role="img"
        onPointerDown={(e) => {
          const ctx = e.currentTarget.getContext('2d')!;
          e.currentTarget.setPointerCapture(e.pointerId);
          drawing.current = true;
          const p = point(e);
          ctx.beginPath();
          ctx.moveTo(p.x, p.y);
          ctx.lineTo(p.x + 0.1, p.y + 0.1);
          ctx.stroke();
          setEmpty(false);
          if (props.saved) props.onSave(null);
        }}
        onPointerMove={(e) => {
          if (!drawing.current) return;
          const ctx = e.currentTarget.getContext('2d')!;
          const p = point(e);
          ctx.lineTo(p.x, p.y);
          ctx.stroke();
        }}
        onPointerUp={() => {
          drawing.current = false;
          if (props.autoSave) props.onSave(canvas.current!.toDataURL('image/png'));
        }}
        onPointerLeave={() => (drawing.current = false)}
      />
      <div className="card-actions">
        <button
          type="button"
          className="button button-quiet button-small"
          onClick={() => {
            const ctx = canvas.current!.getContext('2d')!;
            ctx.fillStyle = '#fff';
            ctx.fillRect(0, 0, SIGNATURE_WIDTH, SIGNATURE_HEIGHT);
            setEmpty(true);
            props.onSave(null);
          }}
        >
          Clear
        </button>
        {!props.autoSave && (
          <button type="button" className="button button-small" disabled={empty} onClick={() => props.onSave(canvas.current!.toDataURL('image/png'))}>
            Save Signature
          </button>
        )}
        <span role="status">{props.saved ? 'Signature saved.' : ''}</span>
      </div>
    </div>
  );
}
