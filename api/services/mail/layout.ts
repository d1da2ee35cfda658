/**
 * One look for every mail: a heading, paragraphs, an optional button, a footer. Everything
 * given is text and is escaped here, so words typed by visitors never become markup.
 */
export interface MailContent {
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Small print, e.g. the unsubscribe line. */
  footer?: string[];
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

export function renderMail(content: MailContent): { html: string; text: string } {
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s).replace(/\n/g, '<br>')}</p>`;
  const button = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#2f6b55;color:#fff;padding:12px 20px;border-radius:999px;text-decoration:none;font-weight:600">${escapeHtml(content.action.label)}</a></p>`
    : '';
  const footer = (content.footer ?? []).map((f) => `<p style="margin:0 0 8px;color:#666;font-size:13px">${escapeHtml(f)}</p>`).join('');
  const html = `<!doctype html><html><body style="margin:0;background:#f7f5f0"><div style="max-width:560px;margin:0 auto;padding:24px;font:16px/1.5 Georgia,serif;color:#23302a"><h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(content.heading)}</h1>${content.paragraphs.map(p).join('')}${button}${footer ? `<hr style="border:0;border-top:1px solid #ddd;margin:24px 0">${footer}` : ''}</div></body></html>`;
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
