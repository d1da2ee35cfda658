/**
 * Her agenda's shapes and words without zod (issue 35): the Week page's island and the forms'
 * overlap warnings read them, and a light island must not carry zod (contract/agenda.ts has the
 * schemas and re-exports all of this).
 */

export type AgendaKind = 'class' | 'tasting' | 'session' | 'gig' | 'busy';

/** One thing in her agenda. */
export interface AgendaItem {
  id: string;
  kind: AgendaKind;
  /** ISO instants. */
  start: string;
  end: string;
  title: string;
  /** Where (an address, a location, 'Online'); absent for a busy time. */
  place?: string;
  /** Typed by her ('manual') or read from her Google Calendar ('google'); busy times only. */
  source?: 'manual' | 'google';
  /** The ids of the items it overlaps, the travel buffer between places counted. */
  conflictsWith: string[];
  /** Miles from the place before it that day (half of each place's round trip from home), when both are her locations and differ. */
  milesFromPrevious?: number;
}

/** What something new overlaps: one line per item, for "it overlaps …". */
export interface Overlap {
  id: string;
  kind: AgendaKind;
  title: string;
  start: string;
  end: string;
}

/**
 * What an answer that added something carries when it overlaps her agenda (save, then warn: she
 * may go ahead). `overlaps` names at most MAX_OVERLAPS_LISTED items, in time order, each once
 * however many of a series' occurrences overlap it; `moreOverlaps` counts the rest.
 */
export interface OverlapWarning {
  overlaps: Overlap[];
  moreOverlaps?: number;
}

/** A repeating gig makes up to two years of classes: past this many, the list says "and N more". */
export const MAX_OVERLAPS_LISTED = 10;

export const KIND_WORDS: Record<AgendaKind, string> = {
  class: 'Class',
  tasting: 'Tasting',
  session: 'Session',
  gig: 'Gig',
  busy: 'Busy',
};

/** "Riverside Flow (gig, Tue, Dec 1 · 6:00 PM–7:00 PM)": `when` is written by the caller, on her clocks. */
export const overlapWords = (o: Overlap, when: string) => `${o.title || KIND_WORDS[o.kind]} (${KIND_WORDS[o.kind].toLowerCase()}, ${when})`;

/** "It overlaps: A (…); B (…) and 3 more." or '' when nothing is overlapped. */
export function overlapsSentence(w: Partial<OverlapWarning>, when: (o: Overlap) => string): string {
  const list = w.overlaps ?? [];
  if (list.length === 0) return '';
  const more = w.moreOverlaps ? ` and ${w.moreOverlaps} more` : '';
  return `It overlaps: ${list.map((o) => overlapWords(o, when(o))).join('; ')}${more}.`;
}
