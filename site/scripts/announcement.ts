import { request } from '../lib/http';
import type { AnnouncementView } from '../../contract/backoffice.ts';

/** localStorage key holding the id of the announcement the visitor closed. */
export const DISMISSED_KEY = 'announcement-dismissed';

function dismissedId(): string | null {
  try {
    return localStorage.getItem(DISMISSED_KEY);
  } catch {
    return null;
  }
}

async function show(): Promise<void> {
  let live: AnnouncementView | null = null;
  try {
    const res = await request<{ announcement: AnnouncementView | null }>('GET', '/api/announcement', { timeoutMs: 10_000 });
    if (res.ok) live = res.data.announcement;
  } catch {
    return;
  }
  if (!live || dismissedId() === live.id || document.querySelector('[data-announcement]')) return;
  const bar = document.createElement('aside');
  bar.className = 'announcement';
  bar.dataset.announcement = live.id;
  bar.setAttribute('aria-label', 'Announcement');
  const text = document.createElement('p');
  // textContent: the message is text, never markup.
  text.textContent = live.message;
  if (live.link && /^https?:\/\//i.test(live.link)) {
    const a = document.createElement('a');
    a.href = live.link;
    a.textContent = 'Learn more';
    text.append(' ', a);
  }
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'announcement-close';
  close.setAttribute('aria-label', 'Dismiss announcement');
  close.textContent = '×';
  close.addEventListener('click', () => {
    try {
      localStorage.setItem(DISMISSED_KEY, live.id);
    } catch {
      // Private mode without storage: closed for this page only.
    }
    bar.remove();
    room.disconnect();
    document.body.style.removeProperty('padding-bottom');
  });
  bar.append(text, close);
  document.body.append(bar);
  // Issue 30: the page ends the bar's height lower, so whatever it covers (the footer, a form's
  // last field, the intake's signature pad) can be scrolled up above it. Only the end of the
  // page grows: nothing drawn moves.
  const room = new ResizeObserver(() => {
    document.body.style.paddingBottom = `${bar.offsetHeight}px`;
  });
  room.observe(bar);
}

/**
 * The site announcement (issue 16): asked for once the page has loaded and the browser is idle,
 * so it never delays the first paint; shown as a bar fixed to the bottom of the window, so it
 * moves nothing on the page (no layout shift). Closing it remembers that announcement's id.
 */
export function initAnnouncement(): void {
  const later = () => ('requestIdleCallback' in window ? requestIdleCallback(() => void show(), { timeout: 2000 }) : setTimeout(() => void show(), 200));
  if (document.readyState === 'complete') later();
  else addEventListener('load', later, { once: true });
}
