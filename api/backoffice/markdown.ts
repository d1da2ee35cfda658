/**
 * The newsletter's Markdown, rendered for mail on the server only. markdown-it with `html:
 * false` escapes any HTML the admin types (so no raw markup or script gets through), and links
 * and images are kept only for http(s) and mailto addresses: `javascript:`, `data:` and the
 * rest stay visible as text and never become a link.
 */
import MarkdownIt from 'markdown-it';

const SAFE_URL = /^(https?:\/\/|mailto:)/i;

const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
md.validateLink = (url: string) => SAFE_URL.test(url.trim());

export function renderMarkdown(source: string): string {
  return md.render(source);
}
