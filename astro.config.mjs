// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import node from '@astrojs/node';

/**
 * In `astro dev` the Hono API and the dev-only pages it serves (/api/*, /dev/*, /calendar.ics) are mounted
 * as on-demand routes of the dev server, so one origin gives site + API with hot reload.
 * In the build they are left out: the production entry (api/server.ts) serves the API in
 * front of Astro, and bundling it twice would load the database twice.
 */
function devApi() {
  return {
    name: 'dev-api',
    hooks: {
      /** @param {{ command: string, injectRoute: (r: { pattern: string, entrypoint: string, prerender?: boolean }) => void }} opts */
      'astro:config:setup': ({ command, injectRoute }) => {
        if (command !== 'dev') return;
        injectRoute({ pattern: '/api/[...path]', entrypoint: './api/dev-route.ts', prerender: false });
        injectRoute({ pattern: '/dev/[...path]', entrypoint: './api/dev-route.ts', prerender: false });
        // The public class feed is the Hono app's too (api/classes/feed.routes.ts).
        injectRoute({ pattern: '/calendar.ics', entrypoint: './api/dev-route.ts', prerender: false });
      },
    },
  };
}

/** `client:interaction` (site/directives/interaction.ts): hydrate an island when reached for. */
function interactionDirective() {
  return {
    name: 'client-interaction',
    hooks: {
      /** @param {{ addClientDirective: (d: { name: string, entrypoint: string }) => void }} opts */
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'interaction', entrypoint: './site/directives/interaction.ts' });
      },
    },
  };
}

/**
 * The Content-Security-Policy (api/middleware/security-headers.ts) has no 'unsafe-eval'. Zod 4
 * probes for eval with `new Function('')` when it builds an object schema, and the browser
 * reports that probe as a CSP violation even though zod catches it. Zod's `jitless` setting
 * skips the probe. A one-line inline script in every page's <head> sets it before any island
 * or module runs; the server allows it by its hash like Astro's other inline scripts. It sets
 * zod's shared config object (the one `z.config()` writes, kept on globalThis so that copies
 * of zod agree) rather than importing zod, which would cost a request on every page. (A
 * before-hydration script would do too, but it delays every island's directive until it has
 * loaded, and a form using client:interaction could then be submitted before it hydrates.)
 * tests/e2e/csp.spec.ts fails if the probe comes back. Astro's own `security.csp` is not
 * used: see docs/decisions/0005-security-headers.md.
 */
function zodWithoutEval() {
  return {
    name: 'zod-without-eval',
    hooks: {
      /** @param {{ injectScript: (stage: 'head-inline', content: string) => void }} opts */
      'astro:config:setup': ({ injectScript }) => {
        injectScript('head-inline', '(globalThis.__zod_globalConfig ??= {}).jitless = true;');
      },
    },
  };
}

export default defineConfig({
  // Canonical URLs, Open Graph and the sitemap use the public origin.
  site: process.env.SITE_URL ?? 'http://localhost:4321',
  srcDir: './site',
  publicDir: './site/public',
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  integrations: [react(), interactionDirective(), zodWithoutEval(), devApi()],
  server: { port: Number(process.env.PORT ?? 4321) },
  // The API checks Origin itself (api/middleware/origin.ts); Astro's own check would only see dev routes.
  security: { checkOrigin: false },
  build: { inlineStylesheets: 'auto' },
  prefetch: false,
});
