import type { ClientSessionView } from '../../../contract/slots.ts';

export type SessionGroup = { kind: 'single'; session: ClientSessionView } | { kind: 'series'; seriesId: string; sessions: ClientSessionView[] };

/**
 * "My Bookings" (issue 32): the sessions of a weekly series together, where its first one falls
 * in the list; every other session alone. The order of `sessions` is kept within each group.
 */
export function groupBySeries(sessions: ClientSessionView[]): SessionGroup[] {
  const groups: SessionGroup[] = [];
  const series = new Map<string, ClientSessionView[]>();
  for (const s of sessions) {
    if (!s.seriesId) {
      groups.push({ kind: 'single', session: s });
      continue;
    }
    const list = series.get(s.seriesId);
    if (list) list.push(s);
    else {
      const first = [s];
      series.set(s.seriesId, first);
      groups.push({ kind: 'series', seriesId: s.seriesId, sessions: first });
    }
  }
  // A "series" left with one session (the others cancelled) reads as a single session.
  return groups.map((g) => (g.kind === 'series' && g.sessions.length === 1 ? { kind: 'single', session: g.sessions[0]! } : g));
}
