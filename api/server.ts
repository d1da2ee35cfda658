/**
 * The one Node entry of production (`npm start` runs it after a build): static files of the
 * built site, the Hono API under /api, and Astro's on-demand routes, on one port.
 *
 *   request ─▶ Hono app (/api/*, /dev/* stand-ins)
 *           └▶ static file from dist/client (precompressed, long cache on hashed /_astro/*)
 *           └▶ Astro's handler (dist/server/entry.mjs, on-demand pages)
 *           └▶ dist/client/404.html with status 404
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { buildOriginProblem, distDirOf } from './build-info.ts';
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { boot, type BootOptions } from './boot.ts';
import { EnvError, isLoopbackHost, loadEnvOrExit, orCannotStart, readDotEnv, unsafeStandIns, type Env } from './env.ts';
import { inlineScriptHashes, securityHeaders, securityHeadersMiddleware, setSecurityHeaders } from './middleware/security-headers.ts';
import type { AppEnv } from './types.ts';
import { requestLog } from './middleware/request-log.ts';
import { startReminders } from './booking/reminders.ts';
import { startReconciler } from './payments/reconcile.ts';
import { startNewsletterSender } from './backoffice/newsletter-sender.ts';
import { startClassReminders } from './classes/reminders.ts';

type NodeBindings = { incoming: IncomingMessage; outgoing: ServerResponse };
type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void, locals?: object) => Promise<void>;

export interface RunningServer {
  url: string;
  port: number;
  env: Env;
  services: Awaited<ReturnType<typeof boot>>['services'];
  seeded: Awaited<ReturnType<typeof boot>>['seeded'];
  close(): Promise<void>;
}

export async function startServer(
  env: Env,
  options: BootOptions & { site?: boolean; reminders?: boolean; reconciler?: boolean; newsletters?: boolean } = {},
): Promise<RunningServer> {
  const site = options.site !== false;
  const distDir = distDirOf(env.DIST_DIR);
  const clientDir = join(distDir, 'client');
  if (site && !existsSync(`${clientDir}/index.html`)) throw new Error('The site is not built: run `npm run build` (npm start does it for you).');
  // Pages built for another origin would send visitors, search engines and shares elsewhere.
  const originProblem = site && env.NODE_ENV === 'production' ? buildOriginProblem(distDir, env.SITE_URL) : undefined;
  if (originProblem) throw new EnvError(originProblem);
  const booted = await boot(env, options);
  // Computed once: the policy depends only on the environment and the build.
  const headers = securityHeaders(env, { scriptHashes: site ? inlineScriptHashes(clientDir) : [] });
  const root = new Hono<AppEnv & { Bindings: NodeBindings }>();
  root.use('*', requestLog({ quiet: env.QUIET || env.NODE_ENV === 'test', format: env.LOG_FORMAT, trustProxy: env.TRUST_PROXY }));
  root.use('*', securityHeadersMiddleware(headers));
  root.route('/', booted.app);

  if (site) {
    root.use(
      '*',
      serveStatic({
        root: clientDir,
        precompressed: true,
        onFound: (path, c) => {
          // Hashed build assets never change under one name; everything else is revalidated.
          c.header('cache-control', path.includes('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate');
        },
      }),
    );
    const { handler } = (await import(/* @vite-ignore */ pathToFileURL(join(distDir, 'server/entry.mjs')).href)) as { handler: AstroHandler };
    const notFoundPage = existsSync(`${clientDir}/404.html`) ? readFileSync(`${clientDir}/404.html`, 'utf8') : '<h1>Not found</h1>';
    root.all('*', async (c) => {
      // Astro writes to the socket itself, past the middleware: give it the headers first.
      setSecurityHeaders(c.env.outgoing, headers);
      let fellThrough = false;
      await handler(c.env.incoming, c.env.outgoing, () => {
        fellThrough = true;
      });
      if (!fellThrough) return RESPONSE_ALREADY_SENT;
      return c.html(notFoundPage, 404);
    });
  }

  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: root.fetch, port: env.PORT, hostname: env.HOST }, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  // Session reminders: every process checks each minute; the database claim sends each once.
  const stopReminders = options.reminders === false ? () => {} : startReminders(booted.services);
  // Class reminders the day before: the same way, a sibling check.
  const stopClassReminders = options.reminders === false ? () => {} : startClassReminders(booted.services);
  // Payment attempts a crash left half way: every process checks at start and each interval; the claim settles each once.
  const stopReconciler = options.reconciler === false ? async () => {} : startReconciler(booted.services);
  // Newsletter outbox: every process sends at its pace; the claim gives each row to one sender.
  const stopNewsletters = options.newsletters === false ? async () => {} : startNewsletterSender(booted.services);
  return {
    url: `http://localhost:${port}`,
    port,
    env,
    services: booted.services,
    seeded: booted.seeded,
    close: async () => {
      stopReminders();
      stopClassReminders();
      await stopReconciler();
      await stopNewsletters();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await booted.close();
    },
  };
}

export function banner(running: RunningServer): string {
  const { env, services } = running;
  const on = Object.entries(env.standIns)
    .filter(([, v]) => v)
    .map(([k]) => k);
  const lines = [
    '',
    `  Yoga & Chocolates is running at ${running.url}`,
    `  API health        ${running.url}/api/health`,
    `  Database          ${services.database.where}`,
    `  Admin login       ${running.url}/admin  ${env.ADMIN_EMAIL}` +
      (env.defaulted.includes('ADMIN_PASSWORD') ? ` / ${env.ADMIN_PASSWORD} (development default)` : ' (password from ADMIN_PASSWORD)'),
    `  Stand-ins on      ${on.length ? on.join(', ') : 'none'}`,
  ];
  if (env.standIns.mail) lines.push(`  Mailbox           ${running.url}/dev/mailbox`);
  if (env.standIns.payments) lines.push('  Payments          PayPal emulator (buttons say "(emulator)")');
  else if (!env.PAYPAL_WEBHOOK_ID) lines.push('  PayPal webhooks   off: PAYPAL_WEBHOOK_ID unset, so refunds made in PayPal are not reflected');
  if (env.standIns.realtime) lines.push(`  Realtime          partykit dev on ${services.realtime.host}`);
  const unsafe = unsafeStandIns(env.standIns);
  if (unsafe.length && !isLoopbackHost(env.HOST)) {
    lines.push(`  WARNING           ALLOW_STAND_INS=1: ${unsafe.join(', ')} stand-ins reachable by anyone on ${env.HOST}:${running.port}`);
  }
  return lines.join('\n') + '\n';
}

if (import.meta.main) {
  readDotEnv();
  const env = loadEnvOrExit();
  const running = await orCannotStart(startServer(env));
  console.log(banner(running));
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
