import { request } from '../lib/http';
import { forgetUser, initials, readUser, userId } from '../lib/profile';

/** The mobile menu toggle, the profile badge and its menu, the cart count. No framework. */
export function initNavbar(): void {
  const toggle = document.querySelector<HTMLButtonElement>('[data-nav-toggle]');
  const panel = document.querySelector<HTMLElement>('[data-nav-panel]');
  toggle?.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    panel?.classList.toggle('open', open);
  });

  renderProfile();
  initMenu();
  checkSession();

  if (document.querySelector('[data-cart-count]')) {
    // Only the chocolate pages pay for the cart store.
    import('../stores/cart').then(({ $cartCount }) => {
      $cartCount.subscribe((n) => {
        const el = document.querySelector('[data-cart-count]');
        if (el) el.textContent = n > 0 ? ` (${n})` : '';
      });
    });
  }
}

function renderProfile(): void {
  const user = readUser();
  const out = document.querySelector<HTMLElement>('[data-auth-out]');
  const inn = document.querySelector<HTMLElement>('[data-auth-in]');
  if (!out || !inn) return;
  out.hidden = !!user;
  inn.hidden = !user;
  if (!user) return;
  const badge = inn.querySelector('[data-initials]');
  if (badge) badge.textContent = initials(user);
  const id = userId(user);
  for (const link of inn.querySelectorAll<HTMLAnchorElement>('[data-user-link]')) {
    link.href = id ? `/user/${encodeURIComponent(id)}${link.dataset.userLink}` : '/login';
    // Without an id the client's pages can't be reached: each would only bounce to /login.
    link.parentElement!.hidden = !id;
  }
  for (const item of inn.querySelectorAll<HTMLElement>('[data-guest-item]')) item.hidden = !!id;
}

/**
 * The stored profile only paints the badge early; the session is the cookie. When the server says
 * there is none (it ended, or the client logged out elsewhere), the profile is forgotten and the
 * header offers Register and Log in again instead of pages that bounce to the login (issue 20).
 * Only a definite 401 counts: offline or a server error leaves the badge as it is.
 */
function checkSession(): void {
  if (!readUser()) return;
  request('POST', '/api/user/validate-token', { body: { token: null } })
    .then((res) => {
      if (res.status !== 401) return;
      forgetUser();
      renderProfile();
    })
    .catch(() => {});
}

function initMenu(): void {
  const badge = document.querySelector<HTMLButtonElement>('[data-badge]');
  const menu = document.querySelector<HTMLElement>('[data-profile-menu]');
  if (!badge || !menu) return;
  const items = () => [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')].filter((item) => !item.closest('[hidden]'));

  const open = (focusFirst: boolean) => {
    menu.hidden = false;
    badge.setAttribute('aria-expanded', 'true');
    if (focusFirst) items()[0]?.focus();
  };
  const close = (returnFocus: boolean) => {
    if (menu.hidden) return;
    menu.hidden = true;
    badge.setAttribute('aria-expanded', 'false');
    if (returnFocus) badge.focus();
  };

  badge.addEventListener('click', () => (menu.hidden ? open(false) : close(false)));
  badge.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open(true);
    }
  });
  menu.addEventListener('keydown', (e) => {
    const list = items();
    const i = list.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      list[(i + 1) % list.length]?.focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      list[(i - 1 + list.length) % list.length]?.focus();
    } else if (e.key === 'Home') {
      e.preventDefault();
      list[0]?.focus();
    } else if (e.key === 'End') {
      e.preventDefault();
      list.at(-1)?.focus();
    } else if (e.key === 'Tab') {
      close(false);
    }
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') close(true);
  });
  document.addEventListener('click', (e) => {
    if (!menu.hidden && !menu.contains(e.target as Node) && !badge.contains(e.target as Node)) close(false);
  });

  menu.querySelector('[data-logout]')?.addEventListener('click', async () => {
    close(false);
    try {
      await request('POST', '/api/user/logout');
    } catch {
      // offline: the local profile is forgotten anyway, the cookie expires on its own
    }
    forgetUser();
    window.location.assign('/');
  });
}
