/**
 * This server process, as the work it claims names its holder (payment attempts, the mail
 * outbox, unfinalized bookings): lets an operator tell replicas apart. One value per process.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

export const PROCESS_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
