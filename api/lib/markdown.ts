/**
 * The newsletter's Markdown, rendered for mail on the server only. markdown-it with `html:
 * false` escapes any HTML the admin types (so no raw markup or script gets through), and links
 * and images are kept only for http(s) and mailto addresses: `javascript:`, `data:` and the
 * rest stay visible as text and never become a link.
 */
import MarkdownIt from 'markdown-it';
import { photoSizes, type PictureView } from '../../contract/images.ts';

const SAFE_URL = /^(https?:\/\/|mailto:)/i;

const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
md.validateLink = (url: string) => SAFE_URL.test(url.trim());

export function renderMarkdown(source: string): string {
  return md.render(source);
}

/**
 * The same Markdown for a mail (issue 30): a photo is drawn at most as wide as the mail's column
 * (512 px, and the screen's width on a phone), with the width attribute the mail programs that
 * ignore CSS keep; a 1200-px cover no longer makes a phone's mail scroll sideways.
 */
const mailMd = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
mailMd.validateLink = md.validateLink;
const MAIL_IMAGE_STYLE = 'display:block;width:100%;max-width:512px;height:auto;border:0';
mailMd.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  // As markdown-it's own image rule: the alt text from the words between the brackets.
  token.attrSet('alt', self.renderInlineAsText(token.children ?? [], options, env));
  token.attrSet('width', '512');
  token.attrSet('style', MAIL_IMAGE_STYLE);
  return self.renderToken(tokens, idx, options);
};

export function renderMailMarkdown(source: string): string {
  return mailMd.render(source);
}

type Token = ReturnType<typeof md.parse>[number];

/** The words of an inline token: emphasis dropped, links as "text (url)", images as "alt (url)". */
function inlineText(children: readonly Token[]): string {
  let out = '';
  const hrefs: (string | null)[] = [];
  // Nested links don't exist in Markdown: one start is enough.
  let linkStart = 0;
  for (const t of children) {
    switch (t.type) {
      case 'text':
      case 'code_inline':
        out += t.content;
        break;
      case 'softbreak':
      case 'hardbreak':
        out += '\n';
        break;
      case 'link_open':
        hrefs.push(String(t.attrGet('href') ?? '') || null);
        linkStart = out.length;
        break;
      case 'link_close': {
        const href = hrefs.pop();
        const words = out.slice(linkStart);
        // An autolink's words are its address already: said once.
        if (href && words !== href && `mailto:${words}` !== href) out += ` (${href})`;
        break;
      }
      case 'image': {
        const src = String(t.attrGet('src') ?? '');
        const alt = t.children ? inlineText(t.children) : t.content;
        out += src ? `${alt ? `${alt} ` : ''}(${src})` : alt;
        break;
      }
      default:
        // strong_open, em_open, s_open and their closes: the words stay, the marks go.
        break;
    }
  }
  return out;
}

/**
 * The newsletter's plain-text part (issue 20): the Markdown as text a person reads, not Markdown.
 * Headings are lines of their own, **bold** and *emphasis* lose their marks, links read
 * "text (https://…)", list items start with "- " (numbered ones "1. "), quotes with "> ", code is
 * indented; blocks are separated by a blank line. Unsafe links (javascript: and the like) were
 * never links (validateLink) and stay as the text typed.
 */
export function markdownToText(source: string): string {
  const tokens = md.parse(source, {});
  const blocks: string[] = [];
  /** Open lists, innermost last: their kind and the next item's number. */
  const lists: { ordered: boolean; next: number }[] = [];
  let quote = 0;
  /** The marker of the list item whose first paragraph comes next. */
  let marker: string | null = null;
  const prefix = (text: string, first: string) => {
    const indent = '  '.repeat(Math.max(0, lists.length - 1));
    const quoted = '> '.repeat(quote);
    const rest = ' '.repeat(first.length);
    return text
      .split('\n')
      .map((line, i) => `${quoted}${lists.length ? indent : ''}${i === 0 ? first : rest}${line}`.trimEnd())
      .join('\n');
  };
  let listLines: string[] | null = null;
  const emit = (text: string) => {
    const first = marker ?? '';
    marker = null;
    const line = prefix(text, first);
    if (listLines) listLines.push(line);
    else blocks.push(line);
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    switch (t.type) {
      case 'heading_open':
      case 'paragraph_open': {
        const inline = tokens[i + 1];
        if (inline?.type === 'inline') emit(inlineText(inline.children ?? []));
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open':
        lists.push({ ordered: t.type === 'ordered_list_open', next: Number(t.attrGet('start') ?? 1) });
        listLines ??= [];
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        if (lists.length === 0 && listLines) {
          blocks.push(listLines.join('\n'));
          listLines = null;
        }
        break;
      case 'list_item_open': {
        const list = lists[lists.length - 1]!;
        marker = list.ordered ? `${list.next++}. ` : '- ';
        break;
      }
      case 'blockquote_open':
        quote++;
        break;
      case 'blockquote_close':
        quote--;
        break;
      case 'fence':
      case 'code_block':
        emit(
          t.content
            .replace(/\n$/, '')
            .split('\n')
            .map((l) => `    ${l}`)
            .join('\n'),
        );
        break;
      case 'hr':
        emit('----------');
        break;
      default:
        break;
    }
  }
  return blocks.join('\n\n').trim();
}

// ---------------------------------------------------------------------------------------------
// Her journal's posts (issue 22): the same rules, and her own photos inside the text

/** A photo she uploaded, as the post's Markdown names it: ![what it shows](/api/images/{id}). */
const UPLOADED_IMAGE = /^\/api\/images\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * A second instance with one difference: an image may also be one of her uploads (a path on this
 * site). validateLink sees links and images alike, so the path passes it, and the `journal-links`
 * rule below takes such a path out of any link again: only an image may name it. Everything else
 * is the newsletter's renderer: no HTML, links only to http(s) and mailto.
 */
const postMd = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
postMd.validateLink = (url: string) => SAFE_URL.test(url.trim()) || UPLOADED_IMAGE.test(url.trim());
postMd.core.ruler.push('journal-links', (state) => {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const kept: Token[] = [];
    let dropClose = false;
    for (const t of block.children) {
      // A link to the photo path (not an image of it): its words stay, as plain text.
      if (t.type === 'link_open' && !SAFE_URL.test(String(t.attrGet('href') ?? '').trim())) {
        dropClose = true;
        continue;
      }
      if (t.type === 'link_close' && dropClose) {
        dropClose = false;
        continue;
      }
      kept.push(t);
    }
    block.children = kept;
  }
});

export interface PostRenderOptions {
  /** The pipeline's sizes of the photos the text names, by id. */
  pictures: ReadonlyMap<string, PictureView> | Readonly<Record<string, PictureView>>;
  /** The feed: every address absolute on this origin, a plain <img> (feed readers know no <picture>). */
  origin?: string;
  /** How wide the text column shows a photo. */
  sizes?: string;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

postMd.renderer.rules.image = (tokens, idx, options, renderEnv, self) => {
  const token = tokens[idx]!;
  const env = renderEnv as unknown as PostRenderOptions;
  const alt = escapeAttr(self.renderInlineAsText(token.children ?? [], options, renderEnv));
  const src = String(token.attrGet('src') ?? '').trim();
  const id = UPLOADED_IMAGE.exec(src)?.[1]?.toLowerCase();
  if (!id) {
    // A picture from another site: a link to it, never an image of unknown size from elsewhere.
    return `<a href="${escapeAttr(src)}">${alt || escapeAttr(src)}</a>`;
  }
  const pictures = env.pictures;
  const view = pictures instanceof Map ? pictures.get(id) : (pictures as Record<string, PictureView>)[id];
  // A photo deleted since: its words, not a broken image.
  if (!view) return alt;
  if (env.origin) return `<img src="${escapeAttr(env.origin + view.src)}" width="${view.width}" height="${view.height}" alt="${alt}" />`;
  // A dense screen chooses as a 2× one (decision 0049).
  const sizes = escapeAttr(photoSizes(env.sizes ?? '(max-width: 767.98px) calc(100vw - 2rem), 44rem'));
  return (
    `<picture class="photo">` +
    (view.avif ? `<source type="image/avif" srcset="${escapeAttr(view.avif)}" sizes="${sizes}" />` : '') +
    `<source type="image/webp" srcset="${escapeAttr(view.webp)}" sizes="${sizes}" />` +
    `<img src="${escapeAttr(view.src)}" alt="${alt}" width="${view.width}" height="${view.height}" loading="lazy" decoding="async" />` +
    `</picture>`
  );
};

/** A post's body as safe HTML: headings, lists, quotes, links, and her photos at their intrinsic size. */
export function renderPostMarkdown(source: string, options: PostRenderOptions): string {
  // A fresh env per render: markdown-it keeps the text's link references in it.
  return postMd.render(source, { ...options });
}

/** Her uploaded photos a post's text shows, in order, once each. */
export function postImageIds(source: string): string[] {
  const ids = new Set<string>();
  const walk = (tokens: readonly Token[]) => {
    for (const t of tokens) {
      if (t.type === 'image') {
        const id = UPLOADED_IMAGE.exec(String(t.attrGet('src') ?? '').trim())?.[1];
        if (id) ids.add(id.toLowerCase());
      }
      if (t.children) walk(t.children);
    }
  };
  walk(postMd.parse(source, {}));
  return [...ids];
}

/** The words a reader reads (photos and marks left out): the text's paragraphs for the excerpt, the count of every word for the reading time. */
export function postWords(source: string): { paragraphs: string[]; blocks: string[]; words: number } {
  const paragraphs: string[] = [];
  const blocks: string[] = [];
  let words = 0;
  const tokens = postMd.parse(source, {});
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== 'inline') continue;
    const text = (t.children ?? [])
      .map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : c.type === 'softbreak' || c.type === 'hardbreak' ? ' ' : ''))
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
    if (!text) continue;
    words += text.split(' ').length;
    blocks.push(text);
    // The excerpt is made of the text's own paragraphs: not list items, quotes or headings.
    const open = tokens[i - 1];
    if (open?.type === 'paragraph_open' && open.level === 0 && !open.hidden) paragraphs.push(text);
  }
  return { paragraphs, blocks, words };
}

/** The excerpt she left empty: the post's first words, cut at a word near `max` characters. */
export function excerptOf(source: string, max = 200): string {
  const { paragraphs, blocks } = postWords(source);
  // A text of only a list or a quote: its words all the same.
  const text = (paragraphs.length ? paragraphs : blocks).join(' ');
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, '')}…`;
}
