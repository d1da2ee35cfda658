/**
 * The one Node entry of production (`npm start` runs it after a build): static files of the
 * built site, the Hono API under /api, and Astro's on-demand routes, on one port.
 *
 *   request ─▶ fast path: a published page or a built file, from memory (api/middleware/fast-path.ts)
 *           └▶ Hono app (/api/*, /dev/* stand-ins)
 *           └▶ a public page rendered ahead with her published content (api/pages/render-ahead.ts),
 *              or a built file held in memory: answered by the page server the fast path uses
 *              (api/middleware/page-server.ts, decision 0062)
 *           └▶ static file from dist/client left on disk (over the size cap, a range request)
 *           └▶ Astro's handler (dist/server/entry.mjs, on-demand pages)
 *           └▶ the 404 page (rendered ahead, else dist/client/404.html) with status 404
 */
import { releaseLapsedHolds } from './classes/paid-places.ts';
import { refundDuePayments } from './classes/refunds.ts';
import { refundDueTastingPayments } from './tastings/tastings-of-deleted-account.ts';
import { makeDueRefunds } from './money/refunds-owed.ts';
import { expireLapsedCredits } from './money/ledger.ts';
import { sendExpiryReminders } from './packages/expiry-reminders.ts';
import { deliverDueCards } from './gift-cards/gift-cards.ts';
import { zonedNow } from './lib/time.ts';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { buildOriginProblem, distDirOf } from './lib/build-info.ts';
import { Hono } from 'hono';
import { getRequestListener, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { boot, PURCHASE_KINDS, type BootOptions } from './boot.ts';
import { EnvError, isLoopbackHost, loadEnvOrExit, orCannotStart, readDotEnv, unsafeStandIns, type Env } from './env.ts';
import { inlineScriptHashes, resourceHeaders, securityHeaders, securityHeadersMiddleware, setSecurityHeaders } from './middleware/security-headers.ts';
import { createFastPath, type FastPath } from './middleware/fast-path.ts';
import { createPageServer, IMMUTABLE_CACHE, PAGE_CACHE, responseOf } from './middleware/page-server.ts';
import { answeredNeverServed, READ_ONLY_MESSAGE, refuseConnect } from './middleware/methods.ts';
import { firstSegment } from './pages/served-paths.ts';
import type { AppEnv } from './types.ts';
import { requestLog } from './middleware/request-log.ts';
import { sendDueReminders } from './booking/reminders.ts';
import { retryOwedSessionRefunds } from './booking/cancel-booking.ts';
import { reconcilePayments } from './money/reconcile.ts';
import { resolveUnfinalizedBookings } from './booking/unfinalized.ts';
import { sendNewsletterBatch } from './backoffice/newsletter-sender.ts';
import { sendDueClassReminders } from './classes/reminders.ts';
import { sendDueMails } from './mail/outbox.ts';
import { autoBackupsOn, startAutoBackups } from './backups/schedule.ts';
import type { PageRenderer } from './site/publisher.ts';
import { NOT_FOUND } from './pages/site-routes.ts';
import { publishDuePosts } from './pages/journal.ts';
import { createRunner } from './lib/periodic.ts';
import { calendarTick } from './agenda/calendar.ts';
import { mirrorCalendar } from './agenda/write-back.ts';
import type { RenderContext } from '../contract/content.ts';

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
  options: BootOptions & {
    site?: boolean;
    reminders?: boolean;
    reconciler?: boolean;
    newsletters?: boolean;
    /** false: the periodic mail sender is off (mails are still sent right after their commit). */
    outbox?: boolean;
    backups?: boolean;
    journal?: boolean;
    /** false: her Google busy times are not read on a timer (still on a push, a save and a booking attempt). */
    calendar?: boolean;
    /**
     * false: every page and file goes through the Hono fallback. Only tests set it, to prove both
     * paths answer alike (tests/api/pages/one-page-server.test.ts); the entry below passes no options.
     */
    fastPath?: boolean;
  } = {},
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
  const resource = resourceHeaders(env);
  const logOptions = { quiet: env.QUIET || env.NODE_ENV === 'test', format: env.LOG_FORMAT, trustProxy: env.TRUST_PROXY, trustedProxies: env.TRUSTED_PROXIES };
  const root = new Hono<AppEnv & { Bindings: NodeBindings }>();
  root.use('*', requestLog(logOptions));
  root.use('*', securityHeadersMiddleware(headers, resource));
  root.route('/', booted.app);

  // Render tickets: a page the server renders ahead asks for itself over loopback with one of
  // these, and Astro's handler gets its context; without a ticket /render-ahead/* is not found.
  const tickets = new Map<string, RenderContext>();
  let fastPath: FastPath | undefined;
  if (site) {
    const { publisher } = booted.services;
    const appSegments = new Set(booted.app.routes.map((r) => firstSegment(r.path)).filter((s) => s !== undefined));
    // One page server for both paths (decision 0062): the built files read once, each page's answer made once.
    const pages = createPageServer({ clientDir, appSegments, documentHeaders: headers, resourceHeaders: resource });
    // Published pages and built files from memory, before Hono (issue 36); what it does not hold comes here.
    if (options.fastPath !== false)
      fastPath = createFastPath({
        pages,
        publisher,
        notFoundPath: NOT_FOUND,
        appSegments,
        log: { ...logOptions, trust: { TRUST_PROXY: env.TRUST_PROXY, TRUSTED_PROXIES: env.TRUSTED_PROXIES } },
      });
    // The pages and files the fast path left: other spellings of their paths (`/yog%61`, `/./x`), a
    // journal page rendered on demand. The same page server chooses their answer, sent as a
    // Response with the same status, headers and bytes. What it does not hold goes on: a page
    // that redirects, a range request, a file over its size cap.
    root.on(['GET', 'HEAD'], '*', async (c, next) => {
      const path = c.req.path.replace(/(.)\/$/, '$1');
      // A journal page not in memory (stale since a publish moved its cards) is made on this request.
      const page = path === NOT_FOUND ? undefined : (publisher.lookup(path) ?? (await publisher.renderOnDemand(path)));
      if (page?.status === 301) return c.redirect(page.body, 301);
      const answer = page ? pages.page(page) : c.req.header('range') === undefined ? pages.file(c.req.path) : undefined;
      if (!answer) return next();
      return responseOf(pages.choose(answer, c.req.header('accept-encoding'), c.req.header('if-none-match')), c.req.method);
    });
    root.use(
      '*',
      serveStatic({
        root: clientDir,
        precompressed: true,
        onFound: (path, c) => {
          // Hashed build assets never change under one name; everything else is revalidated.
          c.header('cache-control', path.includes('/_astro/') ? IMMUTABLE_CACHE : PAGE_CACHE);
        },
      }),
    );
    const { handler } = (await import(/* @vite-ignore */ pathToFileURL(join(distDir, 'server/entry.mjs')).href)) as { handler: AstroHandler };
    const builtNotFound = existsSync(`${clientDir}/404.html`) ? readFileSync(`${clientDir}/404.html`, 'utf8') : '<h1>Not found</h1>';
    root.all('*', async (c) => {
      // Pages and files are only read: a write to one is refused here, not handed to Astro.
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.json({ message: READ_ONLY_MESSAGE }, 405, { allow: 'GET, HEAD' });
      let locals: App.Locals;
      if (c.req.path.startsWith('/render-ahead/')) {
        const context = tickets.get(c.req.header('x-render-ticket') ?? '');
        if (!context) return c.html(publisher.lookup(NOT_FOUND)?.body ?? builtNotFound, 404);
        locals = { render: context };
      } else {
        // On-demand pages (client and admin areas) show her published navigation and footer too.
        locals = { render: publisher.liveContext(c.req.path) };
      }
      // Astro writes to the socket itself, past the middleware: give it the headers first.
      setSecurityHeaders(c.env.outgoing, headers);
      let fellThrough = false;
      await handler(
        c.env.incoming,
        c.env.outgoing,
        () => {
          fellThrough = true;
        },
        locals,
      );
      if (!fellThrough) return RESPONSE_ALREADY_SENT;
      return c.html(publisher.lookup(NOT_FOUND)?.body ?? builtNotFound, 404);
    });
  }

  const viaHono = getRequestListener(root.fetch, { hostname: env.HOST });
  const fast = fastPath;
  const server: ServerType = await new Promise((resolve) => {
    const s = createServer(
      fast
        ? (req, res) => void (answeredFast(fast, req, res) || answeredNeverServed(req, res, resource) || viaHono(req, res))
        : (req, res) => void (answeredNeverServed(req, res, resource) || viaHono(req, res)),
    );
    s.on('connect', refuseConnect);
    s.listen(env.PORT, env.HOST, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  // Every process runs these jobs on one runner (api/lib/periodic.ts); each job's database claim
  // makes each piece of work happen once across replicas.
  const services = booted.services;
  const runner = createRunner();
  if (options.reminders !== false) {
    // Session reminders, and class reminders the day before: every process checks each minute.
    runner.every('reminders', env.REMINDER_INTERVAL_MS, () => sendDueReminders(services, services.clock.now()));
    runner.every('class reminders', env.REMINDER_INTERVAL_MS, () => sendDueClassReminders(services, services.clock.now()));
    // Session credits past their last day give up what is left (issue 32): one ledger row per lot, across replicas.
    runner.every('credit expiry', env.REMINDER_INTERVAL_MS, () => expireLapsedCredits(services.db, zonedNow(env.SITE_TIMEZONE, services.clock.now()).date));
    // A week before they lapse, one reminder per client (the claim marks the lots: once across replicas).
    runner.every('credit expiry reminders', env.REMINDER_INTERVAL_MS, () =>
      sendExpiryReminders(services, zonedNow(env.SITE_TIMEZONE, services.clock.now()).date),
    );
    // Gift cards whose day has come (issue 33): each delivered once across replicas (the claim marks it).
    runner.every('gift card delivery', env.REMINDER_INTERVAL_MS, () => deliverDueCards(services, zonedNow(env.SITE_TIMEZONE, services.clock.now()).date));
  }
  if (options.reconciler !== false) {
    // Payment attempts a crash left half way: at start and each interval.
    runner.every('payments', env.RECONCILE_INTERVAL_MS, () => reconcilePayments(services, PURCHASE_KINDS), { atStart: true });
    // Bookings approved in PayPal and never finalized (the tab closed): finalized or released, both sides mailed.
    runner.every('unfinalized bookings', env.RECONCILE_INTERVAL_MS, () => resolveUnfinalizedBookings(services));
    // Paid class places (issue 34): holds whose buyers went away are offered on; refunds a crash left owed are made.
    runner.every('class holds', env.RECONCILE_INTERVAL_MS, () => releaseLapsedHolds(services));
    runner.every('event refunds', env.RECONCILE_INTERVAL_MS, () => refundDuePayments(services), { atStart: true });
    // A tasting called off by an erasure (issue 47): its PayPal refunds owed are made, retried until PayPal answers.
    // A cancelled session's refund PayPal refused, or a crash left pending: tried again until made (issue 47).
    runner.every('session refunds', env.RECONCILE_INTERVAL_MS, () => retryOwedSessionRefunds(services), { atStart: true });
    runner.every('tasting refunds', env.RECONCILE_INTERVAL_MS, () => refundDueTastingPayments(services), { atStart: true });
    // Refunds owed (issue 47): a package's or a voided card's PayPal refund refused or cut short by a crash, tried again with a growing wait.
    runner.every('refunds owed', env.RECONCILE_INTERVAL_MS, () => makeDueRefunds(services), { atStart: true });
  }
  // Her Google busy times (issue 35): read again when stale, push channels renewed before they end.
  if (options.calendar !== false && services.calendar) runner.every('google calendar', env.GOOGLE_CALENDAR_REFRESH_MS, () => calendarTick(services));
  // Her agenda written to her Google Calendar (issue 35): the queue planned and sent, at start too (a crash's claims).
  if (options.calendar !== false && services.calendar)
    runner.every('google calendar write-back', env.GOOGLE_CALENDAR_WRITE_MS, () => mirrorCalendar(services), { atStart: true });
  // The mail outbox: retries, and mails a crash left between a commit and its send (at start too).
  if (options.outbox !== false) runner.every('mail', env.OUTBOX_INTERVAL_MS, () => sendDueMails(services), { atStart: true });
  // Newsletter outbox: every process sends at its pace.
  if (options.newsletters !== false) runner.every('newsletter', env.NEWSLETTER_INTERVAL_MS, () => sendNewsletterBatch(services));
  // Scheduled journal posts (api/pages/journal.ts).
  if (options.journal !== false) runner.every('journal', env.JOURNAL_SCHEDULE_MS, () => publishDuePosts(services, services.clock.now()));
  // The embedded database's own backups (issue 21): into BACKUP_DIR every BACKUP_INTERVAL_HOURS, with a retention.
  const stopBackups = options.backups === false ? async () => {} : startAutoBackups(services);
  // Public pages: rendered ahead for this build at start, then kept current from the database.
  const stopPublisher = site ? await services.publisher.start(loopbackRenderer(env.HOST, port, tickets), env.RENDER_POLL_MS) : async () => {};
  return {
    url: `http://localhost:${port}`,
    port,
    env,
    services: booted.services,
    seeded: booted.seeded,
    close: async () => {
      await runner.stop();
      await stopBackups();
      await stopPublisher();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await booted.close();
    },
  };
}

/**
 * The fast path's answer, or false to hand the request to Hono. It runs outside Hono's error
 * handling: a throw before anything was written leaves the request to Hono (which answers it or
 * its error) rather than crashing the process; after, the connection is closed.
 */
function answeredFast(fast: FastPath, req: IncomingMessage, res: ServerResponse): boolean {
  try {
    return fast(req, res);
  } catch (error) {
    console.error('[server] fast path:', error);
    if (!res.headersSent) return false;
    res.destroy();
    return true;
  }
}

/** Renders a render-ahead route by asking this same server for it, with a one-use ticket. */
function loopbackRenderer(host: string, port: number, tickets: Map<string, RenderContext>): PageRenderer {
  const origin = `http://${host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}`;
  return async (route, context) => {
    const ticket = randomUUID();
    tickets.set(ticket, context);
    try {
      const response = await fetch(`${origin}/render-ahead/${route}`, { headers: { 'x-render-ticket': ticket, 'accept-encoding': 'identity' } });
      return { status: response.status, html: await response.text() };
    } finally {
      tickets.delete(ticket);
    }
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
    `  Backups           ${autoBackupsOn({ env, database: services.database }) ? `every ${env.BACKUP_INTERVAL_HOURS} h into ${env.BACKUP_DIR}` : 'not automatic'} (npm run backup, npm run restore)`,
    `  Admin login       ${running.url}/admin  ${env.ADMIN_EMAIL}` +
      (env.defaulted.includes('ADMIN_PASSWORD') ? ` / ${env.ADMIN_PASSWORD} (development default)` : ' (password from ADMIN_PASSWORD)'),
    `  Stand-ins on      ${on.length ? on.join(', ') : 'none'}`,
  ];
  if (env.standIns.mail) lines.push(`  Mailbox           ${running.url}/dev/mailbox`);
  if (env.standIns.payments) lines.push('  Payments          PayPal emulator (buttons say "(emulator)")');
  else if (!env.PAYPAL_WEBHOOK_ID) lines.push('  PayPal webhooks   off: PAYPAL_WEBHOOK_ID unset, so refunds made in PayPal are not reflected');
  if (env.standIns.calendar) lines.push(`  Google Calendar   stand-in at ${running.url}/dev/google (connect it on Settings)`);
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
