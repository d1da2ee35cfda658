import type { APIRoute } from 'astro';

/** The public, indexable routes of SPEC.md section 2. */
export const publicRoutes = ['/', '/yoga', '/about', '/calendar', '/chocolates', '/contact', '/aboutwebsite', '/gift-cards'];

export const GET: APIRoute = ({ site }) => {
  const base = site ?? new URL('http://localhost:4321');
  const urls = publicRoutes.map((p) => `  <url><loc>${new URL(p, base).href}</loc></url>`).join('\n');
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`, {
    headers: { 'content-type': 'application/xml; charset=utf-8' },
  });
};
