/**
 * One look for every mail: a heading, paragraphs, an optional button, a footer. Everything
 * given is text and is escaped here, so words typed by visitors never become markup. Also the
 * few helpers every wing's mails share: the brand, one-line subjects, money, dates.
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';

/**
 * The site's name where no brand of hers is known (the sender's default name, the calendar
 * feeds). Mails are signed with her brand names from the published site content instead:
 * api/site/brand.ts brandNames(), the yoga brand for yoga mails, the chocolate brand for the
 * shop's (issue 20).
 */
export const BRAND = 'Yoga & Chocolates';

export interface MailContent {
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Small print, e.g. the unsubscribe line. */
  footer?: string[];
  /**
   * Markup that replaces the paragraphs in the html part (the text part keeps the paragraphs):
   * only what a safe renderer made, such as a newsletter's Markdown (api/lib/markdown.ts).
   */
  bodyHtml?: string;
  /**
   * Web addresses in the paragraphs that become links in the html part, where they occur (the
   * text part has them as they are). Only addresses the site or the teacher set (a session's
   * place, a carrier's tracking page), never words a visitor typed.
   */
  links?: string[];
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

/** Escaped text with each of `links` (http(s) only) made an anchor where it occurs. */
function linked(text: string, links: readonly string[]): string {
  const html = escapeHtml(text);
  // One pass, longest first: a link that contains another is made whole, and no anchor is made inside another.
  const wanted = [...new Set(links)]
    .filter((l) => /^https?:\/\//i.test(l))
    .map(escapeHtml)
    .sort((a, b) => b.length - a.length);
  if (wanted.length === 0) return html;
  const pattern = new RegExp(wanted.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return html.replace(pattern, (url) => `<a href="${url}" style="color:#2f6b55">${url}</a>`);
}

export function renderMail(content: MailContent): { html: string; text: string } {
  const p = (s: string) => `<p style="margin:0 0 16px">${linked(s, content.links ?? []).replace(/\n/g, '<br>')}</p>`;
  const button = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#2f6b55;color:#fff;padding:12px 20px;border-radius:999px;text-decoration:none;font-weight:600">${escapeHtml(content.action.label)}</a></p>`
    : '';
  const footer = (content.footer ?? []).map((f) => `<p style="margin:0 0 8px;color:#666;font-size:13px">${escapeHtml(f)}</p>`).join('');
  const html = `<!doctype html><html><body style="margin:0;background:#f7f5f0"><div style="max-width:560px;margin:0 auto;padding:24px;font:16px/1.5 Georgia,serif;color:#23302a;overflow-wrap:anywhere;word-break:break-word"><h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(content.heading)}</h1>${content.bodyHtml ?? content.paragraphs.map(p).join('')}${button}${footer ? `<hr style="border:0;border-top:1px solid #ddd;margin:24px 0">${footer}` : ''}</div></body></html>`;
  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((x) => [x, '']),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    ...(content.footer ?? []),
  ]
    .join('\n')
    .trim();
  return { html, text };
}

/** A mail to one address: the content rendered, plus headers or attachments. */
export function mail(to: string, subject: string, content: MailContent, extra: Partial<OutgoingMail> = {}): OutgoingMail {
  return { to, subject, ...renderMail(content), ...extra };
}

/**
 * A name typed by someone who has not proven the address the mail goes to, if it may be echoed:
 * letters (any script, with their marks and the zero-width non-joiner and joiner some scripts
 * spell with), single spaces, hyphens and apostrophes, at most 50 characters. Anything else (a
 * URL, digits, punctuation, "your order failed, visit …") is undefined, and the mail greets
 * neutrally: the site's sender never carries a stranger's text.
 */
export function trustedName(name: string): string | undefined {
  const n = name.trim();
  return n.length <= 50 && /^\p{L}[\p{L}\p{M}\u200C\u200D]*(?:[ '’-]\p{L}[\p{L}\p{M}\u200C\u200D]*)*$/u.test(n) ? n : undefined;
}

/** "Hi Ana," or "Hi," (see trustedName). */
export const greeting = (name: string, hello = 'Hi') => {
  const n = trustedName(name);
  return n ? `${hello} ${n},` : `${hello},`;
};

/** "Thank you, Ana!" or "Thank you!" (see trustedName). */
export const exclaim = (words: string, name: string) => {
  const n = trustedName(name);
  return n ? `${words}, ${n}!` : `${words}!`;
};

/** The small print under a mail: the brand it comes from (brandNames) and the site's address. */
export const siteFooter = (env: Pick<Env, 'SITE_URL'>, brand: string) => [`${brand} · ${env.SITE_URL}`];

/** Subjects carry visitor text (names, titles): one line, bounded. */
export const oneLine = (s: string, max = 80) => {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** The server's one money formatter: 1850 -> "$18.50" (integer arithmetic, no float rounding). */
export const money = (cents: number): string => `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** A date and 12-hour time with the zone's abbreviation, on the teacher's clocks. */
export function classWhen(startsAt: Date, zone: string): { date: string; time: string } {
  return {
    date: new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(startsAt),
    time: new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit', hour12: true, timeZoneName: 'short' }).format(startsAt),
  };
}

/**
 * Her mail when a client's erasure called off what was booked (sessions, tastings): how many of
 * `what` ("coming session", "booked tasting"), one line each, and that the client is erased. The
 * client is never named: the erasure leaves no row that names her (decision 0053).
 */
export function cancelledWithDeletedAccountMail(
  env: Pick<Env, 'TEACHER_EMAIL'>,
  what: { one: string; heading: string; freed: 'slot' | 'day'; erased: string },
  lines: readonly string[],
): OutgoingMail {
  const n = lines.length;
  const many = n === 1 ? `Their ${what.one} was` : `Their ${n} ${what.one}s were`;
  return mail(env.TEACHER_EMAIL, `A client deleted their account: ${n} ${what.one}${n === 1 ? '' : 's'} cancelled`, {
    heading: what.heading,
    paragraphs: [
      `A client deleted their account. ${many} cancelled and the ${what.freed}${n === 1 ? ' is' : 's are'} free again:`,
      lines.map((l) => `• ${l}`).join('\n'),
      `Their ${what.erased} erased, as they asked; the payments stay in your books without them.`,
    ],
  });
}

/** A calendar file as a mail attachment. */
export const icsAttachment = (filename: string, ics: string, method: 'PUBLISH' | 'REQUEST' | 'CANCEL') => ({
  filename,
  contentType: `text/calendar; charset=utf-8; method=${method}`,
  content: Buffer.from(ics, 'utf8').toString('base64'),
});
