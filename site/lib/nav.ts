/**
 * The admin's sections. The public navigation bars and the footer are content (site.yaml's
 * mainNav, shopNav, footerNav, edited in the admin's Pages), not code.
 */
export interface NavLink {
  href: string;
  label: string;
}

/** A heading of the admin's menu and the sections under it. */
export interface NavGroup {
  label: string;
  links: readonly NavLink[];
}

const link = (href: string, label: string): NavLink => ({ href, label });

/**
 * Grouped as the teacher thinks of her day (issue 20), not as the spec lists the pages. The spec's
 * names and paths stay: Events is still /admin/dashboard, whose top is now the Today panel, so
 * "Today" opens the page and "Events" jumps to its events.
 */
export const ADMIN_TODAY: NavLink = link('/admin/dashboard', 'Today');

/**
 * Issue 35: her week in one place (classes, sessions, gigs, busy times). Beside Today at the top
 * of the menu, where it takes no row of its own on the phone: a link more in a group would push
 * the open menu to the screen's foot and leave no room to tap outside it.
 */
export const ADMIN_WEEK: NavLink = link('/admin/week', 'Week');

/** The menu's first row: her day and her week. */
export const ADMIN_DAYS: readonly NavLink[] = [ADMIN_TODAY, ADMIN_WEEK];

export const ADMIN_NAV_GROUPS: readonly NavGroup[] = [
  { label: 'Calendar', links: [link('/admin/dashboard#events', 'Events'), link('/admin/bookings', 'Bookings'), link('/admin/signups', 'Classes')] },
  // issue 34: the private tastings asked for on /chocolates
  { label: 'Shop', links: [link('/admin/chocolates', 'Chocolates'), link('/admin/orders', 'Orders'), link('/admin/tastings', 'Tastings')] },
  // issue 23: the intake form her new clients answer (a client's page opens from Clients)
  { label: 'People', links: [link('/admin/users', 'Clients'), link('/admin/intake', 'Intake form'), link('/admin/subscribers', 'Subscribers')] },
  {
    label: 'Words',
    links: [
      link('/admin/pages', 'Pages'),
      link('/admin/newsletter', 'Newsletter'),
      link('/admin/announcement', 'Announcement'),
      link('/admin/galleries', 'Galleries'),
      // issue 22: her journal's posts
      link('/admin/journal', 'Journal'),
    ],
  },
  // issue 24: her teaching gigs and mileage, and the tax year in one place; issue 32: the packages she sells; issue 33: gift cards
  {
    label: 'Money',
    links: [
      link('/admin/finances', 'Finances'),
      link('/admin/gigs', 'Gigs'),
      link('/admin/tax-year', 'Tax year'),
      link('/admin/packages', 'Packages'),
      link('/admin/gift-cards', 'Gift cards'),
    ],
  },
  // Her numbers and defaults (issue 20), and the last backup's time and size (issue 21).
  { label: 'Settings', links: [link('/admin/settings', 'Settings'), link('/admin/backups', 'Backups'), link('/admin/mail', 'Mail')] },
];

/** Every admin page's link, Today and Week first. */
export const ADMIN_NAV: readonly NavLink[] = [...ADMIN_DAYS, ...ADMIN_NAV_GROUPS.flatMap((g) => g.links)];
