/**
 * The admin's sections. The public navigation bars and the footer are content (site.yaml's
 * mainNav, shopNav, footerNav, edited in the admin's Pages), not code.
 */
export interface NavLink {
  href: string;
  label: string;
}

const link = (href: string, label: string): NavLink => ({ href, label });

export const ADMIN_NAV: readonly NavLink[] = [
  link('/admin/dashboard', 'Events'),
  link('/admin/bookings', 'Bookings'),
  link('/admin/chocolates', 'Chocolates'),
  link('/admin/galleries', 'Galleries'),
  link('/admin/pages', 'Pages'),
  link('/admin/orders', 'Orders'),
  link('/admin/signups', 'Classes'),
  link('/admin/users', 'Clients'),
  link('/admin/subscribers', 'Subscribers'),
  link('/admin/newsletter', 'Newsletter'),
  link('/admin/finances', 'Finances'),
  link('/admin/announcement', 'Announcement'),
];
