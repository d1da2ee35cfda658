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
 * tests/e2e/system/csp.spec.ts fails if the probe comes back. Astro's own `security.csp` is not
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

/**
 * How the browser's scripts are cut into files (issue 36: a first tap that costs little, only the
 * scripts a page needs). Rolldown's automatic splitting made a file of every module two entries
 * share, so the first tap on the home page's form fetched 15 files; these groups make three:
 *  - `site`: the layout's one script (site/layouts/Base.astro) with the small modules islands share
 *    with it (http, alert, the profile, the bundler's helpers). Every public page loads it anyway,
 *    so a content page loads one script, and an island finds these modules already there.
 *  - `islands`: the islands' shared runtime (React, React DOM and its scheduler, Astro's React
 *    renderer, the forms' hooks and fields), fetched once on the first interaction. It becomes the
 *    renderer's own file (entries may export more than they declare: `allow-extension`), which also
 *    takes in Rolldown's small runtime helpers. Nanostores stay out: the header's cart count loads
 *    the cart store on the chocolate pages, and must not bring React with it.
 *  - each island's own code (Astro's entry per island), which stays small. The public content pages'
 *    forms are no islands at all (decision 0050): each is a module of its own, which loads zod on submit.
 * Only the client build is cut this way; the server's bundle keeps Rolldown's defaults.
 */
const SITE_SCRIPT =
  /[\\/]site[\\/](layouts[\\/]Base\.astro\?astro&type=script|lib[\\/](http|alert|profile|captcha|config|plain-form)\.ts|scripts[\\/](navbar|newsletter|announcement|dialog-focus)\.ts)|[\\/]contract[\\/]check\.ts$|vite[\\/]preload-helper|^\0?rolldown[:/]runtime/;
const ISLANDS_RUNTIME =
  /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]|[\\/]node_modules[\\/]@astrojs[\\/]react[\\/]dist[\\/](client|static-html)\.js|[\\/]site[\\/](islands[\\/](useForm|useDomValues|useHydrated|Field)\.tsx?)$/;
function scriptFiles() {
  return {
    name: 'script-files',
    /** @param {string} name */
    configEnvironment(name) {
      if (name !== 'client') return;
      return {
        build: {
          rolldownOptions: {
            preserveEntrySignatures: 'allow-extension',
            // Building a zod schema (`z.object(…)`, `z.string().trim()…`) has no side effect: an island
            // that imports a contract module keeps only the schemas it uses, not every one the server
            // checks with. (Nothing else in the browser's code calls a function named `z`.)
            treeshake: { manualPureFunctions: ['z'] },
            output: {
              codeSplitting: {
                groups: [
                  { name: 'site', test: SITE_SCRIPT, priority: 2 },
                  { name: 'islands', test: ISLANDS_RUNTIME, priority: 1 },
                ],
              },
            },
          },
        },
      };
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
  vite: { plugins: [scriptFiles()] },
});
