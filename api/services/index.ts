/**
 * What every route and use-case reaches through `c.var.services`: the outside-service clients
 * and the process's shared parts. Built once per process by api/boot.ts (createServices): the
 * real client when its keys are configured (always in production, which refuses to start
 * without them), else the stand-in. This file only names them: it imports no wing and no
 * middleware, so a wing's `import type { Services }` closes no circle.
 */
import type { Env } from '../env.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import type { Mailer } from './mail/index.ts';
import type { HumanCheck } from './captcha.ts';
import type { Payments } from './payments/paypal.ts';
import type { Realtime } from './realtime.ts';
import type { TaxRateService } from './tax-rates.ts';
import type { CalendarProvider } from './calendar/index.ts';
import type { GoogleEmulator } from './calendar/emulator.ts';
import type { Hono } from 'hono';
import type { Limits } from './limits.ts';
import type { Publisher } from '../site/publisher.ts';
import type { Clock } from '../lib/clock.ts';

export interface Services {
  env: Env;
  database: DatabaseHandle;
  db: DatabaseHandle['db'];
  /** The one clock every date a person reads comes from (api/lib/clock.ts). */
  clock: Clock;
  mailer: Mailer;
  humanCheck: HumanCheck;
  payments: Payments;
  realtime: Realtime;
  /** The sales-tax rate service (issue 29): Washington's, or its stand-in. */
  taxRates: TaxRateService;
  /** Request limits, shared by every replica on PostgreSQL (api/services/limits.ts). */
  limits: Limits;
  /** Public pages made ahead of the request, shared by every replica (api/pages/render-ahead.ts). */
  publisher: Publisher;
  /** Present only while the PayPal emulator stands in; mounted at /dev/paypal. */
  paypalEmulator?: Hono;
  /**
   * Her Google Calendar (issue 35): Google's REST client, or the same client talking to the
   * stand-in; absent in production without GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET.
   */
  calendar?: CalendarProvider;
  /** Present only while the calendar stand-in is on; mounted at /dev/google. */
  calendarEmulator?: GoogleEmulator;
}
