/**
 * What the "Pages" editor reads from a page's zod schema (contract/content.ts) to build its form:
 * each field's kind, doc line, limits and label. Zod 4 keeps a schema's definition in
 * `schema._zod.def` (`type` plus what that type needs: `shape`, `element`, `innerType`, `options`,
 * `in`/`out`, `checks`); the doc line is `schema.description`, set by `.describe()`. The form walks
 * the input side of a schema: a transform's pipe is edited as what goes into it.
 */
import type { z } from 'zod';
import { PAGE_MESSAGES } from '../../../../contract/content.ts';

/** The parts of a zod 4 definition this module reads. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  in?: z.ZodType;
  defaultValue?: unknown;
  checks?: { _zod: { def: CheckDef } }[];
}
interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Strings longer than this get a <textarea>; a `line` in the contract is at most 300. */
export const SHORT_TEXT_MAX = 300;

/** Keys of fields that hold a picture: each gets the photo chooser. */
export const PICTURE_KEYS = new Set(['image', 'src', 'portrait', 'poster', 'ogImage', 'imageId', 'coverImageId']);

/** Any valid upload id: a picture field that accepts it holds bare ids, the others `/api/images/{id}`. */
const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

export type Kind =
  | { kind: 'text'; long: boolean; min?: number; max?: number }
  | { kind: 'picture'; holds: 'id' | 'url' }
  | { kind: 'boolean' }
  | { kind: 'enum'; values: string[] }
  | { kind: 'object'; shape: Record<string, z.ZodType> }
  | { kind: 'array'; element: z.ZodType; min?: number; max?: number }
  | { kind: 'union'; options: z.ZodType[] }
  | { kind: 'unsupported'; type: string };

export interface FieldSpec {
  /** The schema under optional/default/pipe wrappers: what the control edits. */
  schema: z.ZodType;
  kind: Kind;
  /** May be left empty (`.optional()`, or has a `.default()`). */
  optional: boolean;
  /** The `.default()` value, if one. */
  fallback?: unknown;
  /** The doc line: the first description met going in. */
  doc?: string;
}

function limits(def: Def): { min?: number; max?: number } {
  const out: { min?: number; max?: number } = {};
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'min_length' && d.minimum !== undefined) out.min = Math.max(out.min ?? 0, d.minimum);
    if (d.check === 'max_length' && d.maximum !== undefined) out.max = Math.min(out.max ?? Infinity, d.maximum);
    if (d.check === 'length_equals' && d.length !== undefined) {
      out.min = d.length;
      out.max = d.length;
    }
  }
  return out;
}

/** How to edit the field `key` whose schema is `schema`. */
export function fieldSpec(schema: z.ZodType, key: string): FieldSpec {
  let s = schema;
  let optional = false;
  let fallback: unknown;
  let doc = s.description;
  // Wrappers: optional/nullable/default around the value; a pipe (a transform) is edited as its input.
  for (let def = defOf(s); ; def = defOf(s)) {
    if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) optional = true;
    else if ((def.type === 'default' || def.type === 'prefault') && def.innerType) {
      optional = true;
      fallback = def.defaultValue;
    } else if (def.type === 'pipe' && def.in) {
      s = def.in;
      doc ??= s.description;
      continue;
    } else break;
    s = def.innerType;
    doc ??= s.description;
  }
  const def = defOf(s);
  const spec = (kind: Kind): FieldSpec => ({ schema: s, kind, optional, ...(fallback !== undefined ? { fallback } : {}), ...(doc ? { doc } : {}) });
  switch (def.type) {
    case 'string': {
      if (PICTURE_KEYS.has(key)) return spec({ kind: 'picture', holds: s.safeParse(SAMPLE_ID).success ? 'id' : 'url' });
      const { min, max } = limits(def);
      return spec({
        kind: 'text',
        long: max !== undefined && max > SHORT_TEXT_MAX,
        ...(min !== undefined ? { min } : {}),
        ...(max !== undefined ? { max } : {}),
      });
    }
    case 'boolean':
      return spec({ kind: 'boolean' });
    case 'enum':
      return spec({ kind: 'enum', values: Object.values(def.entries ?? {}).map(String) });
    case 'object':
      return spec({ kind: 'object', shape: def.shape ?? {} });
    case 'array':
      return spec({ kind: 'array', element: def.element!, ...limits(def) });
    case 'union':
      return spec({ kind: 'union', options: def.options ?? [] });
    default:
      return spec({ kind: 'unsupported', type: def.type });
  }
}

/** A fresh value for a new list item or an emptied field: what the form starts her with. */
export function emptyValue(schema: z.ZodType, key = ''): unknown {
  const spec = fieldSpec(schema, key);
  if (spec.fallback !== undefined) return structuredClone(spec.fallback);
  if (spec.optional) return undefined;
  switch (spec.kind.kind) {
    case 'text':
    case 'picture':
      return '';
    case 'boolean':
      return false;
    case 'enum':
      return spec.kind.values[0];
    case 'object':
      return Object.fromEntries(
        Object.entries(spec.kind.shape)
          .map(([k, v]) => [k, emptyValue(v, k)] as const)
          .filter(([, v]) => v !== undefined),
      );
    case 'array':
      return [];
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Labels: the contract's keys said in her words.

const LABELS: Record<string, string> = {
  faq: 'FAQ',
  q: 'Question',
  a: 'Answer',
  ogImage: 'Sharing picture',
  seoTitle: 'Search result title',
  cta: 'Call to action',
  href: 'Link address',
  src: 'Picture',
  image: 'Picture',
  imageId: 'Photo',
  poster: 'Video still',
  imageAlt: 'Alt text',
  portraitAlt: 'Portrait alt text',
  alt: 'Alt text',
  videoId: 'YouTube video id',
  videoTitle: 'Video title',
  mainNav: 'Yoga navigation',
  shopNav: 'Shop navigation',
  footerNav: 'Footer links',
  external: 'Outside links',
  inNavigation: 'Show in the navigation bar',
  inFooter: 'Show in the footer',
  whoIWorkWith: 'Who I work with',
  teacherTitle: 'Yoga brand name',
  chocolateBrand: 'Chocolate brand name',
  teacherName: 'Your name',
  yogaLead: 'Yoga sentence',
  chocolatesLead: 'Chocolates sentence',
  sampleClass: 'Sample class video',
  readyToBegin: 'Ready to begin',
  privateLabel: 'Private-session button',
  groupLabel: 'Group-class button',
  orderLabel: 'Order button',
  id: 'Card id',
  items: 'Items',
  markdown: 'Text (Markdown)',
  slug: 'Address (slug)',
  // Her journal's posts (issue 22)
  body: 'Text (Markdown)',
  coverImageId: 'Cover photo',
  coverAlt: 'Cover photo alt text',
  seoDescription: 'Search result description',
};

/** What one item of a list is called ("Move FAQ item 2 up"), by the list's key. */
const ITEM_NOUNS: Record<string, string> = {
  faq: 'FAQ item',
  mainNav: 'Navigation link',
  shopNav: 'Shop link',
  footerNav: 'Footer link',
  external: 'Outside link',
  whoIWorkWith: 'Line',
  shipping: 'Shipping line',
  stack: 'Part',
  planned: 'Planned feature',
  details: 'Paragraph',
  paragraphs: 'Paragraph',
  classes: 'Class',
  sessions: 'Session item',
  values: 'Value',
};

/** "yogaLead" → "Yoga lead", with the few words the contract abbreviates spelled out. */
export function labelOf(key: string): string {
  const known = LABELS[key];
  if (known) return known;
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The name of one item of the list `key` (inside `parentKey` when the list is a section's `items`). */
export function itemNoun(key: string, parentKey?: string): string {
  const listKey = key === 'items' && parentKey ? parentKey : key;
  const known = ITEM_NOUNS[listKey];
  if (known) return known;
  const label = labelOf(listKey);
  if (/ies$/.test(label)) return label.replace(/ies$/, 'y');
  if (/(ss|sh|ch|x)es$/.test(label)) return label.replace(/es$/, '');
  if (/[^s]s$/.test(label)) return label.slice(0, -1);
  return `${label} item`;
}

// ---------------------------------------------------------------------------------------------
// Values at paths

export type Path = readonly (string | number)[];
export const pathKey = (path: Path) => path.join('.');

export function getIn(root: unknown, path: Path): unknown {
  let v = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

/** A copy of `root` with `value` at `path` (undefined removes an object's key); untouched branches are kept as they were. */
export function setIn(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(root) ? [...(root as unknown[])] : [];
    list[head] = setIn(list[head], rest, value);
    return list;
  }
  const obj = root !== null && typeof root === 'object' && !Array.isArray(root) ? { ...(root as Record<string, unknown>) } : {};
  const next = setIn(obj[head!], rest, value);
  if (next === undefined) delete obj[head!];
  else obj[head!] = next;
  return obj;
}

// ---------------------------------------------------------------------------------------------
// Pictures and their alt text

/** The alt-text field that goes with the picture field `key` in `shape`, if the shape has one. */
export function altKeyOf(key: string, shape: Record<string, unknown>): string | undefined {
  const candidates = key === 'src' ? ['alt'] : key === 'imageId' ? ['imageAlt'] : key === 'coverImageId' ? ['coverAlt'] : [`${key}Alt`];
  return candidates.find((k) => k in shape);
}

/** Issues the schema can't see: an optional photo chosen without its alt text (the server refuses it too). */
export function altIssues(schema: z.ZodType, value: unknown, path: Path = []): { path: string; message: string }[] {
  const spec = fieldSpec(schema, String(path.at(-1) ?? ''));
  const out: { path: string; message: string }[] = [];
  if (spec.kind.kind === 'object' && value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const [k, child] of Object.entries(spec.kind.shape)) {
      const altKey = PICTURE_KEYS.has(k) ? altKeyOf(k, spec.kind.shape) : undefined;
      if (altKey && typeof obj[k] === 'string' && obj[k] !== '' && !String(obj[altKey] ?? '').trim())
        out.push({ path: pathKey([...path, altKey]), message: PAGE_MESSAGES.altRequired });
      out.push(...altIssues(child, obj[k], [...path, k]));
    }
  } else if (spec.kind.kind === 'array' && Array.isArray(value)) {
    const element = spec.kind.element;
    value.forEach((item, i) => out.push(...altIssues(element, item, [...path, i])));
  }
  return out;
}

/** A field's error as a sentence: the contract's messages are fragments after the field's name ("is required"). */
export function errorSentence(label: string, message: string): string {
  if (message === PAGE_MESSAGES.altRequired) return 'Alt text is required with a photo: say what the photo shows.';
  return /^[a-z]/.test(message) ? `${label} ${message}.`.replace(/\.\.$/, '.') : message;
}

/** Validation of a page's content in the browser: the schema's issues plus the alt-text rule, by dotted path. */
export function validateContent(schema: z.ZodType, value: unknown): { ok: true; data: unknown } | { ok: false; errors: Record<string, string> } {
  const result = schema.safeParse(value);
  const extra = altIssues(schema, value);
  if (result.success && extra.length === 0) return { ok: true, data: result.data };
  const errors: Record<string, string> = {};
  for (const i of result.success ? [] : result.error.issues) errors[i.path.map(String).join('.')] ??= i.message;
  for (const i of extra) errors[i.path] ??= i.message;
  return { ok: false, errors };
}
