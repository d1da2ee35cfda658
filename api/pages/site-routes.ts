/**
 * The site's own public pages, rendered ahead (api/pages/render-ahead.ts) and kept from her pages'
 * addresses (api/pages/served-paths.ts): one list both read, so neither imports the other.
 */
import type { BuiltinSlug } from '../../contract/content.ts';

export interface SiteRoute {
  path: string;
  /** site/pages/render-ahead/<route>.astro */
  route: string;
  /** The pages' content it shows besides `site` (every page shows the navigation and footer). */
  reads: BuiltinSlug[];
  facts?: 'products' | 'classes' | 'packages';
  /** Listed in sitemap.xml (the spec's public, indexable routes). */
  sitemap?: boolean;
}

/** Every public page of the site's own. */
export const SITE_ROUTES: readonly SiteRoute[] = [
  { path: '/', route: 'home', reads: ['home'], sitemap: true },
  // Her packages are offered on /yoga (issue 32): made again when she changes one.
  { path: '/yoga', route: 'yoga', reads: ['yoga'], facts: 'packages', sitemap: true },
  { path: '/about', route: 'about', reads: ['about'], sitemap: true },
  { path: '/calendar', route: 'calendar', reads: ['yoga'], facts: 'classes', sitemap: true },
  { path: '/chocolates', route: 'chocolates', reads: ['chocolates'], facts: 'products', sitemap: true },
  { path: '/contact', route: 'contact', reads: ['contact'], sitemap: true },
  { path: '/aboutwebsite', route: 'aboutwebsite', reads: ['aboutwebsite'], sitemap: true },
  { path: '/signup', route: 'signup', reads: ['waiver'] },
  { path: '/signup-selection', route: 'signup-selection', reads: [] },
  { path: '/cart', route: 'cart', reads: [] },
  // Issue 33: buying a gift card, and the links its mails carry (the buyer's change, the printable card).
  { path: '/gift-cards', route: 'gift-cards', reads: [], sitemap: true },
  { path: '/gift-cards/change', route: 'gift-cards-change', reads: [] },
  { path: '/gift-cards/print', route: 'gift-cards-print', reads: [] },
  // Issue 34: a tasting's pay page, the link of its quote's mail.
  { path: '/tastings/pay', route: 'tastings-pay', reads: [] },
  { path: '/login', route: 'login', reads: [] },
  { path: '/register', route: 'register', reads: [] },
  { path: '/dashboard', route: 'dashboard', reads: [] },
  { path: '/class-cancel', route: 'class-cancel', reads: [] },
  // Issue 35: the cancel link of a free meeting's invitation.
  { path: '/meeting-cancel', route: 'meeting-cancel', reads: [] },
  { path: '/unsubscribe', route: 'unsubscribe', reads: [] },
  { path: '/verify-email', route: 'verify-email', reads: [] },
  { path: '/verify-login', route: 'verify-login', reads: [] },
  { path: '/404', route: 'not-found', reads: [] },
];
/** The site's 404 page, rendered ahead like the rest; the server answers unknown paths with it. */
export const NOT_FOUND = '/404';
