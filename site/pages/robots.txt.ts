import type { APIRoute } from 'astro';

/** Written at build: the Sitemap line must be an absolute URL, so it takes the configured `site` (SITE_URL). */
export const prerender = true;

export const GET: APIRoute = ({ site }) => {
  const base = site ?? new URL('http://localhost:4321');
  const lines = [
    'User-agent: *',
    'Disallow: /admin',
    'Disallow: /user/',
    'Disallow: /dev/',
    'Disallow: /api/',
    `Sitemap: ${new URL('/sitemap.xml', base).href}`,
  ];
  return new Response(`${lines.join('\n')}\n`, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
