/**
 * A form generated from a page's zod schema (contract/content.ts), for a phone: short text as an
 * input, long text as a textarea, yes/no as a checkbox, a choice as a select, a group as a
 * fieldset, a list with add, remove and move up/down, a picture with the photo chooser. Every
 * field shows its doc line as help. The page's top-level groups fold, so a long page is a short
 * list of headings; one opens at a time, and "Find a field" shows only the groups whose field
 * names or words hold what she types, open (issue 30: /yoga was 37 screens with every group open). Values are edited in place by path; unchanged branches keep their identity,
 * so a keystroke re-renders only its own field.
 */
import { createContext, memo, useContext, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { ModalDialog } from '../admin-ui';
import { showAlert } from '../../../lib/alert';
import { IMAGE_ACCEPT, IMAGE_MAX_MB } from '../../../../contract/images.ts';
import { altKeyOf, emptyValue, errorSentence, fieldSpec, itemNoun, labelOf, pathKey, type FieldSpec, type Path } from './fields';
import { photoIdOf, Thumb, uploadPhoto, type PhotoLibrary } from './photos';

interface FormContext {
  idBase: string;
  errors: Record<string, string>;
  onChange: (path: Path, value: unknown) => void;
  photos: PhotoLibrary;
  /** Says what just happened to a list (moved, removed), for screen readers. */
  announce: (text: string) => void;
  /** Top-level groups open from the start. */
  opened: readonly string[];
  /** The one top-level group open now (one at a time), or null. */
  openFold: string | null;
  setOpenFold: (prefix: string | null) => void;
  /** While she searches, every group shown is open. */
  searching: boolean;
}

const Ctx = createContext<FormContext | null>(null);
const useForm = () => useContext(Ctx)!;

/** A field's id, its error and the form's change handler: what every field reads first. */
function useField(path: Path) {
  const { idBase, errors, onChange } = useForm();
  return { id: fieldId(idBase, path), error: errors[pathKey(path)], onChange };
}

const NONE: readonly string[] = [];

export const fieldId = (idBase: string, path: Path) => `${idBase}-${path.join('-') || 'root'}`;

/** "Paragraph" → "paragraph", but "FAQ item" stays. */
const inSentence = (noun: string) => (/^[A-Z][a-z]/.test(noun) ? noun.charAt(0).toLowerCase() + noun.slice(1) : noun);

function ErrorLine(props: { id: string; label: string; message: string | undefined }) {
  if (!props.message) return null;
  return (
    <span className="field-error" id={`${props.id}-error`}>
      {errorSentence(props.label, props.message)}
    </span>
  );
}

const describedBy = (id: string, hint: string | undefined, error: string | undefined) =>
  [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;

interface NodeProps {
  schema: z.ZodType;
  value: unknown;
  path: Path;
  label: string;
  /** The key of the object holding this field's list (lists called `items` are named by it). */
  parentKey?: string | undefined;
  /** The alt text beside a picture: the thumbnail's alt, and where focus goes after an upload. */
  alt?: { path: Path; value: unknown } | undefined;
  /** A field of the page itself that folds (top-level group). */
  top?: boolean;
}

const same = (a: NodeProps, b: NodeProps) =>
  a.schema === b.schema &&
  a.value === b.value &&
  a.label === b.label &&
  a.parentKey === b.parentKey &&
  a.top === b.top &&
  pathKey(a.path) === pathKey(b.path) &&
  a.alt?.value === b.alt?.value &&
  pathKey(a.alt?.path ?? []) === pathKey(b.alt?.path ?? []);

const Node = memo(function Node(props: NodeProps) {
  const key = String(props.path.at(-1) ?? '');
  const spec = fieldSpec(props.schema, typeof props.path.at(-1) === 'number' ? '' : key);
  switch (spec.kind.kind) {
    case 'text':
      return <TextField {...props} spec={spec} />;
    case 'picture':
      return <PictureField {...props} spec={spec} />;
    case 'boolean':
      return <CheckboxField {...props} spec={spec} />;
    case 'enum':
      return <SelectField {...props} spec={spec} />;
    case 'object':
      return <ObjectField {...props} spec={spec} />;
    case 'array':
      return <ListField {...props} spec={spec} />;
    case 'union':
      return <ChoiceField {...props} spec={spec} />;
    default:
      return <p className="muted">{props.label}: this field can’t be edited here.</p>;
  }
}, same);

type FieldProps = NodeProps & { spec: FieldSpec };

function TextField({ value, path, label, spec }: FieldProps) {
  const { id, error, onChange } = useField(path);
  const kind = spec.kind.kind === 'text' ? spec.kind : null;
  const text = typeof value === 'string' ? value : '';
  const set = (v: string) => onChange(path, spec.optional && v.trim() === '' ? undefined : v);
  const common = {
    id,
    value: text,
    required: !spec.optional,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, spec.doc, error),
    maxLength: kind?.max,
  } as const;
  // A page section's text, a post's body: room to write.
  const markdown = path.at(-1) === 'markdown' || (path.length === 1 && path[0] === 'body');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {spec.doc && (
        <span className="field-hint" id={`${id}-hint`}>
          {spec.doc}
        </span>
      )}
      {kind?.long ? (
        <textarea
          {...common}
          rows={Math.min(markdown ? 16 : 10, Math.max(markdown ? 6 : 3, Math.ceil(text.length / 38) + 1))}
          onChange={(e) => set(e.target.value)}
        />
      ) : (
        <input {...common} type="text" onChange={(e) => set(e.target.value)} />
      )}
      <ErrorLine id={id} label={label} message={error} />
    </div>
  );
}

function CheckboxField({ value, path, label, spec }: FieldProps) {
  const { id, error, onChange } = useField(path);
  const checked = typeof value === 'boolean' ? value : spec.fallback === true;
  return (
    <div className="field pf-check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, spec.doc, error)}
        onChange={(e) => onChange(path, e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {spec.doc && (
        <span className="field-hint" id={`${id}-hint`}>
          {spec.doc}
        </span>
      )}
      <ErrorLine id={id} label={label} message={error} />
    </div>
  );
}

function SelectField({ value, path, label, spec }: FieldProps) {
  const { id, error, onChange } = useField(path);
  const values = spec.kind.kind === 'enum' ? spec.kind.values : [];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {spec.doc && (
        <span className="field-hint" id={`${id}-hint`}>
          {spec.doc}
        </span>
      )}
      <select
        id={id}
        value={typeof value === 'string' ? value : ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, spec.doc, error)}
        onChange={(e) => onChange(path, e.target.value === '' ? undefined : e.target.value)}
      >
        {(spec.optional || typeof value !== 'string') && <option value="">None</option>}
        {values.map((v) => (
          <option key={v} value={v}>
            {labelOf(v)}
          </option>
        ))}
      </select>
      <ErrorLine id={id} label={label} message={error} />
    </div>
  );
}

/** A group of fields: a fieldset with its legend and doc line; on the page's top level, a fold. */
function ObjectField({ value, path, label, spec, top }: FieldProps) {
  const { idBase, errors } = useForm();
  const id = fieldId(idBase, path);
  const shape = spec.kind.kind === 'object' ? spec.kind.shape : {};
  const obj = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const error = errors[pathKey(path)];
  const key = String(path.at(-1) ?? '');
  const body = (
    <fieldset className="pf-group" aria-describedby={describedBy(id, spec.doc, error)}>
      <legend className={top ? 'sr-only' : undefined}>{label}</legend>
      {spec.doc && (
        <p className="field-hint" id={`${id}-hint`}>
          {spec.doc}
        </p>
      )}
      <ErrorLine id={id} label={label} message={error} />
      {Object.entries(shape).map(([k, child]) => {
        const altKey = altKeyOf(k, shape);
        return (
          <Node
            key={k}
            schema={child}
            value={obj[k]}
            path={[...path, k]}
            label={labelOf(k)}
            parentKey={key}
            alt={altKey && fieldSpec(child, k).kind.kind === 'picture' ? { path: [...path, altKey], value: obj[altKey] } : undefined}
          />
        );
      })}
    </fieldset>
  );
  return top ? (
    <Fold path={path} label={label}>
      {body}
    </Fold>
  ) : (
    body
  );
}

/** A top-level group folded under its name; it opens itself when a field inside has an error. */
function Fold(props: { path: Path; label: string; children: ReactNode }) {
  const { errors, openFold, setOpenFold, searching } = useForm();
  const prefix = pathKey(props.path);
  const bad = Object.keys(errors).some((k) => k === prefix || k.startsWith(`${prefix}.`));
  const open = searching || openFold === prefix || bad;
  return (
    <details
      className="pf-fold"
      open={open}
      onToggle={(e) => {
        const now = e.currentTarget.open;
        if (now === open || searching) return;
        // Opening one closes the one open before; closing it leaves none open.
        if (now) setOpenFold(prefix);
        else if (openFold === prefix) setOpenFold(null);
      }}
    >
      <summary>
        {props.label}
        {bad && <span className="pf-fold-flag"> (needs a fix)</span>}
      </summary>
      {props.children}
    </details>
  );
}

/** A list she adds to, removes from and reorders. */
function ListField({ value, path, label, spec, parentKey, top }: FieldProps) {
  const { idBase, errors, onChange, announce } = useForm();
  const id = fieldId(idBase, path);
  const kind = spec.kind.kind === 'array' ? spec.kind : null;
  const items = Array.isArray(value) ? value : [];
  const key = String(path.at(-1) ?? '');
  const noun = itemNoun(key, parentKey);
  const error = errors[pathKey(path)];
  const element = kind!.element;
  const elementIsGroup = fieldSpec(element, '').kind.kind === 'object';
  const full = kind?.max !== undefined && items.length >= kind.max;
  const least = kind?.min !== undefined && items.length <= kind.min;
  const focusLater = (target: string) => requestAnimationFrame(() => document.getElementById(target)?.focus());

  function move(from: number, to: number) {
    const next = [...items];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved);
    onChange(path, next);
    announce(`Moved ${inSentence(noun)} ${from + 1} to place ${to + 1}.`);
    const dir = to < from ? 'up' : 'down';
    const edge = (dir === 'up' && to === 0) || (dir === 'down' && to === next.length - 1);
    focusLater(`${id}-${to}-${edge ? (dir === 'up' ? 'down' : 'up') : dir}`);
  }
  function remove(i: number) {
    onChange(
      path,
      items.filter((_, j) => j !== i),
    );
    announce(`Removed ${inSentence(noun)} ${i + 1}.`);
    focusLater(items.length > 1 ? `${id}-${Math.min(i, items.length - 2)}-remove` : `${id}-add`);
  }
  function add() {
    onChange(path, [...items, emptyValue(element)]);
    announce(`Added ${inSentence(noun)} ${items.length + 1}.`);
    // Focus the new item's first field.
    requestAnimationFrame(() => document.getElementById(`${id}-${items.length}-item`)?.querySelector<HTMLElement>('input, textarea, select')?.focus());
  }

  const body = (
    <fieldset className="pf-group pf-list" aria-describedby={describedBy(id, spec.doc, error)}>
      <legend className={top ? 'sr-only' : undefined}>{label}</legend>
      {spec.doc && (
        <p className="field-hint" id={`${id}-hint`}>
          {spec.doc}
        </p>
      )}
      <ErrorLine id={id} label={label} message={error} />
      {items.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <ol className="pf-items">
          {items.map((item, i) => {
            const name = `${noun} ${i + 1}`;
            const spoken = `${inSentence(noun)} ${i + 1}`;
            return (
              // Index keys: the fields are controlled, so values follow a move; focus is moved by hand.
              <li key={i} id={`${id}-${i}-item`} className={elementIsGroup ? 'pf-item pf-item-group' : 'pf-item'}>
                <Node schema={element} value={item} path={[...path, i]} label={name} parentKey={key} />
                <div className="pf-item-actions">
                  <button type="button" id={`${id}-${i}-up`} className="button button-quiet button-small" disabled={i === 0} onClick={() => move(i, i - 1)}>
                    Move<span className="sr-only"> {spoken}</span> up
                  </button>
                  <button
                    type="button"
                    id={`${id}-${i}-down`}
                    className="button button-quiet button-small"
                    disabled={i === items.length - 1}
                    onClick={() => move(i, i + 1)}
                  >
                    Move<span className="sr-only"> {spoken}</span> down
                  </button>
                  <button
                    type="button"
                    id={`${id}-${i}-remove`}
                    className="button button-quiet button-small pf-remove"
                    disabled={least}
                    onClick={() => remove(i)}
                  >
                    Remove<span className="sr-only"> {spoken}</span>
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <button type="button" id={`${id}-add`} className="button button-small" disabled={full} onClick={add}>
        Add {inSentence(noun)}
      </button>
    </fieldset>
  );
  return top ? (
    <Fold path={path} label={label}>
      {body}
    </Fold>
  ) : (
    body
  );
}

/**
 * One of several shapes (the call to action: a preset or her own words and address). A select
 * picks the shape; a preset that a transform turns into an object is recognised by its output.
 */
function ChoiceField({ value, path, label, spec }: FieldProps) {
  const { id, error, onChange } = useField(path);
  const options = spec.kind.kind === 'union' ? spec.kind.options : [];
  type Choice = { key: string; text: string; value: unknown; output?: unknown; schema?: z.ZodType };
  const choices: Choice[] = [];
  let own: z.ZodType | undefined;
  for (const option of options) {
    const o = fieldSpec(option, '');
    if (o.kind.kind === 'enum') {
      for (const v of o.kind.values) {
        const out = option.safeParse(v);
        const shown = out.success && out.data && typeof out.data === 'object' && 'label' in out.data ? `“${String(out.data.label)}”` : labelOf(v);
        const href = out.success && out.data && typeof out.data === 'object' && 'href' in out.data ? ` (${String(out.data.href)})` : '';
        choices.push({ key: `preset:${v}`, text: `${shown}${href}`, value: v, output: out.success ? out.data : undefined });
      }
    } else if (o.kind.kind === 'object' && !own) {
      own = option;
      choices.push({ key: 'own', text: 'Your own words and address', value: undefined, schema: option });
    }
  }
  const matches = (c: Choice) => c.value === value || (c.output !== undefined && JSON.stringify(c.output) === JSON.stringify(value));
  const derived = value === undefined ? 'none' : (choices.find((c) => c.key !== 'own' && matches(c))?.key ?? 'own');
  // Her choice of "own" sticks even while its words equal a preset's.
  const [picked, setPicked] = useState<string | null>(null);
  const current = picked === 'own' && value && typeof value === 'object' ? 'own' : derived;

  function choose(key: string) {
    setPicked(key);
    if (key === 'none') return onChange(path, undefined);
    const c = choices.find((x) => x.key === key)!;
    if (key !== 'own') return onChange(path, c.value);
    // Start her own from what was there (a preset's words), or empty.
    const start = value && typeof value === 'object' ? value : (choices.find((x) => x.key === derived)?.output ?? emptyValue(own!));
    onChange(path, start);
  }

  return (
    <div className="pf-choice">
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {spec.doc && (
          <span className="field-hint" id={`${id}-hint`}>
            {spec.doc}
          </span>
        )}
        <select
          id={id}
          value={current}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, spec.doc, error)}
          onChange={(e) => choose(e.target.value)}
        >
          {spec.optional && <option value="none">None</option>}
          {choices.map((c) => (
            <option key={c.key} value={c.key}>
              {c.text}
            </option>
          ))}
        </select>
        <ErrorLine id={id} label={label} message={error} />
      </div>
      {current === 'own' && own && <Node schema={own} value={value} path={path} label={`${label}: your own`} />}
    </div>
  );
}

/** A picture: its thumbnail, a choice among her photos, an upload on the spot. */
function PictureField({ value, path, label, spec, alt }: FieldProps) {
  const { idBase, errors, onChange, photos } = useForm();
  const id = fieldId(idBase, path);
  const error = errors[pathKey(path)];
  const holds = spec.kind.kind === 'picture' ? spec.kind.holds : 'url';
  const [choosing, setChoosing] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [status, setStatus] = useState('');
  const fileRef = useRef<HTMLInputElement>(null);
  const photoId = photoIdOf(value);
  const altText = typeof alt?.value === 'string' ? alt.value.trim() : '';
  const valueOf = (photo: string) => (holds === 'id' ? photo : `/api/images/${photo}`);

  function use(photo: string) {
    onChange(path, valueOf(photo));
    setChoosing(false);
    if (alt && !altText) focusAlt('Photo chosen: now say what it shows in its alt text.');
    else setStatus('Photo chosen.');
  }
  function focusAlt(text: string) {
    setStatus(text);
    if (alt) requestAnimationFrame(() => document.getElementById(fieldId(idBase, alt.path))?.focus());
  }

  async function upload(input: HTMLInputElement) {
    const file = input.files?.[0];
    if (!file) return;
    setProgress(0);
    setStatus('Uploading the photo…');
    try {
      const photo = await uploadPhoto(file, altText, setProgress);
      photos.add([photo]);
      onChange(path, valueOf(photo.id));
      if (alt && !altText) focusAlt('Photo uploaded: now say what it shows in its alt text.');
      else setStatus('Photo uploaded. Save the draft to keep it.');
    } catch (err) {
      setStatus('');
      await showAlert({ icon: 'error', title: 'Photo not uploaded', text: err instanceof Error ? err.message : 'Please try again.' });
    } finally {
      setProgress(null);
      input.value = '';
    }
  }

  const thumbAlt = altText || (photoId ? photos.photos?.find((p) => p.id === photoId)?.alt : undefined) || `${label}, chosen`;
  return (
    <div className="field pf-photo" role="group" aria-labelledby={`${id}-label`} aria-describedby={describedBy(id, spec.doc, error)}>
      <span className="pf-label" id={`${id}-label`}>
        {label}
      </span>
      {spec.doc && (
        <span className="field-hint" id={`${id}-hint`}>
          {spec.doc}
        </span>
      )}
      <div className="pf-photo-row">
        <Thumb key={String(value)} value={value} alt={thumbAlt} picture={photoId ? photos.pictureOf(photoId) : undefined} />
        <div className="pf-photo-actions">
          <button
            type="button"
            className="button button-quiet button-small"
            onClick={() => {
              setChoosing(true);
              void photos.load();
            }}
          >
            Choose from your photos<span className="sr-only"> for {label}</span>
          </button>
          {spec.optional && value !== undefined && value !== '' && (
            <button type="button" className="button button-quiet button-small" onClick={() => onChange(path, undefined)}>
              Remove<span className="sr-only"> {label}</span>
            </button>
          )}
        </div>
      </div>
      <label htmlFor={`${id}-file`} className="pf-upload-label">
        Upload a new photo<span className="sr-only"> for {label}</span>
      </label>
      <span className="field-hint" id={`${id}-file-hint`}>
        JPEG, PNG, WebP or AVIF, at most {IMAGE_MAX_MB} MB.
      </span>
      <input
        ref={fileRef}
        id={`${id}-file`}
        type="file"
        accept={IMAGE_ACCEPT}
        disabled={progress !== null}
        aria-invalid={error ? true : undefined}
        aria-describedby={[`${id}-file-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ')}
        onChange={(e) => void upload(e.target)}
      />
      {progress !== null && (
        <progress max={1} value={progress} aria-label={`Upload of the photo for ${label}`}>
          {Math.round(progress * 100)}%
        </progress>
      )}
      <span className="pf-photo-status" role="status">
        {status}
      </span>
      <ErrorLine id={id} label={label} message={error} />
      {choosing && (
        <ModalDialog title="Choose a photo" className="pf-chooser" onClose={() => setChoosing(false)}>
          {photos.photos === null ? (
            <p role="status">Loading your photos…</p>
          ) : photos.photos.length === 0 ? (
            <p>No photos yet: close this and upload one.</p>
          ) : (
            <ul className="pf-chooser-grid">
              {photos.photos.map((p) => (
                <li key={p.id}>
                  <button type="button" className="pf-chooser-photo" aria-pressed={p.id === photoId} onClick={() => use(p.id)}>
                    <Thumb value={`/api/images/${p.id}`} alt="" picture={p.picture} />
                    <span>{p.alt}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <p>
            <button
              type="button"
              className="button button-quiet button-small"
              onClick={() => {
                setChoosing(false);
                requestAnimationFrame(() => fileRef.current?.focus());
              }}
            >
              Upload a new one instead
            </button>
          </p>
        </ModalDialog>
      )}
    </div>
  );
}

/** What "Find a field" looks in: a top-level part's name, its fields' names and her words in it, lower-cased. */
function wordsOf(key: string, value: unknown): string {
  const out: string[] = [labelOf(key)];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, inner] of Object.entries(v)) {
        out.push(labelOf(k));
        walk(inner);
      }
  };
  walk(value);
  return out.join(' ').toLowerCase();
}

/**
 * The whole form of one page. `order` puts some top-level fields first; `after` renders something
 * after a top-level field (the search-result preview after the SEO fields), given the whole value.
 */
export function SchemaForm(props: {
  schema: z.ZodType;
  value: unknown;
  errors: Record<string, string>;
  onChange: (path: Path, value: unknown) => void;
  photos: PhotoLibrary;
  order?: readonly string[];
  /** Top-level groups shown open at first (the others fold). */
  open?: readonly string[];
  after?: Partial<Record<string, (value: unknown) => ReactNode>>;
}) {
  const idBase = useId().replace(/[^\w-]/g, '');
  const [announcement, setAnnouncement] = useState('');
  const { errors, onChange, photos } = props;
  const opened = props.open ?? NONE;
  const [openFold, setOpenFold] = useState<string | null>(() => opened[0] ?? null);
  const [query, setQuery] = useState('');
  const searching = query.trim().length > 0;
  const ctx = useMemo<FormContext>(
    () => ({ idBase, errors, onChange, photos, announce: setAnnouncement, opened, openFold, setOpenFold, searching }),
    [idBase, errors, onChange, photos, opened, openFold, searching],
  );
  const spec = fieldSpec(props.schema, '');
  const shape = spec.kind.kind === 'object' ? spec.kind.shape : {};
  const keys = [...(props.order ?? []).filter((k) => k in shape), ...Object.keys(shape).filter((k) => !props.order?.includes(k))];
  const obj = props.value && typeof props.value === 'object' ? (props.value as Record<string, unknown>) : {};
  // The groups whose names, field names or words hold every word she typed.
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = searching ? keys.filter((k) => words.every((w) => wordsOf(k, obj[k]).includes(w))) : keys;
  return (
    <Ctx.Provider value={ctx}>
      <div className="pf-form">
        <div className="field pf-search">
          <label htmlFor={`${idBase}-find`}>Find a field</label>
          <input
            id={`${idBase}-find`}
            type="search"
            value={query}
            aria-describedby={`${idBase}-find-count`}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="A word on the page or a field’s name"
          />
          <span className="muted" id={`${idBase}-find-count`} role="status">
            {searching ? (shown.length ? `${shown.length} of ${keys.length} parts hold “${query.trim()}”.` : `No part holds “${query.trim()}”.`) : ''}
          </span>
        </div>
        {keys.map((k) => {
          const child = shape[k]!;
          const kind = fieldSpec(child, k).kind.kind;
          const altKey = altKeyOf(k, shape);
          return (
            <div key={k} className="pf-top" hidden={!shown.includes(k)}>
              <Node
                schema={child}
                value={obj[k]}
                path={[k]}
                label={labelOf(k)}
                top={kind === 'object' || kind === 'array'}
                alt={altKey && kind === 'picture' ? { path: [altKey], value: obj[altKey] } : undefined}
              />
              {props.after?.[k]?.(props.value)}
            </div>
          );
        })}
        <p className="sr-only" role="status">
          {announcement}
        </p>
      </div>
    </Ctx.Provider>
  );
}

/** Moves focus to the first field marked invalid (after the render that marked it and opened its fold). */
export function useFocusFirstError(container: { current: HTMLElement | null }, shown: number) {
  useEffect(() => {
    if (shown === 0) return;
    const el = container.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!el) return;
    // In the middle of the screen: the label above stays in view and the bottom bar can't hide it.
    el.scrollIntoView({ block: 'center' });
    el.focus({ preventScroll: true });
  }, [container, shown]);
}
