/**
 * The words of issue 35's warning, shared by the forms that add slots, events, gigs and busy
 * times: what was saved overlaps her agenda, each item with its kind and its time on her clocks.
 */
import { overlapsSentence, type OverlapWarning } from '../../../contract/agenda-words.ts';
import { formatSpan } from './admin-ui';

/** "It overlaps: Riverside Flow (gig, Tue, Dec 1 · 6:00 PM–7:00 PM)." or '' when nothing is overlapped. */
export const overlapsNote = (w: Partial<OverlapWarning>) => overlapsSentence(w, (o) => formatSpan(o.start, o.end));
