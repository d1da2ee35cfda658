/**
 * The site's navigation lists: the main menu (yoga pages), the shop's menu (/chocolates and
 * /cart), the footer and the admin sections. A page linked from several lists is written once.
 */
export interface NavLink {
  href: string;
  label: string;
}

const link = (href: string, label: string): NavLink => ({ href, label });

const home = link('/', 'Home');
const calendar = link('/calendar', 'Calendar');
const chocolates = link('/chocolates', 'Chocolates');
const contact = link('/contact', 'Contact');

export const MAIN_NAV: readonly NavLink[] = [home, link('/yoga', 'Yoga'), calendar, chocolates, contact];

export const SHOP_NAV: readonly NavLink[] = [chocolates, contact, link('/yoga', 'Back to Yoga')];

export const FOOTER_NAV: readonly NavLink[] = [home, link('/about', 'About'), calendar, contact, chocolates, link('/aboutwebsite', 'About this website')];

export const ADMIN_NAV: readonly NavLink[] = [
  link('/admin/dashboard', 'Events'),
  link('/admin/bookings', 'Bookings'),
  link('/admin/chocolates', 'Chocolates'),
  link('/admin/galleries', 'Galleries'),
  link('/admin/orders', 'Orders'),
  link('/admin/signups', 'Classes'),
  link('/admin/users', 'Clients'),
  link('/admin/subscribers', 'Subscribers'),
  link('/admin/newsletter', 'Newsletter'),
  link('/admin/finances', 'Finances'),
  link('/admin/announcement', 'Announcement'),
];
