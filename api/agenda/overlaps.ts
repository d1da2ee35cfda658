/**
 * The warning when she adds something that overlaps her agenda (issue 35, decision 0044): the
 * new thing is saved first and the answer names what it overlaps, so she may go ahead (no
 * confirm step: a gig she has agreed to is real whatever else is on that day). A repeating event,
 * gig or run of slots is weighed occurrence by occurrence against one read of the agenda over
 * their whole span.
 */
import type { DB } from '../../db/client.ts';
import { MAX_OVERLAPS_LISTED, type Overlap, type OverlapWarning } from '../../contract/agenda.ts';
import { locationBuffers } from './agenda.repo.ts';
import { clashesOf, takenAround, type Candidate } from './agenda.ts';

/** A new thing as the warning weighs it: its place's travel buffer is looked up by name. */
export type NewThing = Omit<Candidate, 'bufferMinutes'>;

/**
 * What `things` overlap in her agenda, each overlapped item once and in time order, at most
 * MAX_OVERLAPS_LISTED of them (`moreOverlaps` counts the rest). The new things themselves (their
 * ids) are never counted: they are already saved.
 */
export async function overlapsOfNew(db: DB, zone: string, things: NewThing[]): Promise<OverlapWarning> {
  if (things.length === 0) return { overlaps: [] };
  const from = new Date(Math.min(...things.map((t) => t.start.getTime())));
  const to = new Date(Math.max(...things.map((t) => t.end.getTime())));
  const [taken, buffers] = await Promise.all([takenAround(db, zone, from, to), locationBuffers(db)]);
  const own = new Set(things.flatMap((t) => (t.id ? [t.id] : [])));
  const others = taken.filter((t) => !own.has(t.id));
  const found = new Map<string, Overlap>();
  for (const t of things) {
    const candidate: Candidate = { ...t, bufferMinutes: t.online ? 0 : (buffers.get(t.place.trim().toLowerCase()) ?? 0) };
    for (const o of clashesOf(candidate, others)) {
      found.set(o.id, { id: o.id, kind: o.kind, title: o.title, start: o.start.toISOString(), end: o.end.toISOString() });
    }
  }
  const all = [...found.values()].sort((a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id));
  const more = all.length - MAX_OVERLAPS_LISTED;
  return { overlaps: all.slice(0, MAX_OVERLAPS_LISTED), ...(more > 0 ? { moreOverlaps: more } : {}) };
}
