/**
 * Settings stored in a shape an earlier version wrote, read in today's shape (so her saved values
 * survive an upgrade and no page fails on them); the next save writes today's shape. A value no
 * upgrade recognises still reads as its default (settings.repo.ts).
 */
import { DEFAULT_SETTINGS, type BookingAmounts, type DollarRange, type SessionTypeKey, type SettingsKey } from '../../contract/settings.ts';

/** How issue 20's default sliding-scale sentence (stored whole) began: the ranges' part. */
const ISSUE_20_RANGES_SENTENCE = 'Sliding scale: individual yoga $80–$110 per hour; yoga therapy $10–$80 per hour through June 2026.';

interface Issue20Amounts {
  label: DollarRange;
  accepted: DollarRange;
  continue: DollarRange;
  clickMax: number;
  perType: Record<SessionTypeKey, DollarRange | null>;
  slidingScale: string;
}

const isRange = (v: unknown): v is DollarRange =>
  !!v && typeof v === 'object' && Number.isInteger((v as DollarRange).min) && Number.isInteger((v as DollarRange).max);

function isIssue20Amounts(v: unknown): v is Issue20Amounts {
  if (!v || typeof v !== 'object') return false;
  const o = v as Partial<Issue20Amounts>;
  return (
    isRange(o.label) &&
    isRange(o.accepted) &&
    isRange(o.continue) &&
    Number.isInteger(o.clickMax) &&
    typeof o.slidingScale === 'string' &&
    !!o.perType &&
    typeof o.perType === 'object'
  );
}

/** Issue 20's four general ranges left as the spec gave them: she never chose them. */
const untouched = (o: Issue20Amounts) =>
  o.label.min === 10 &&
  o.label.max === 110 &&
  o.accepted.min === 50 &&
  o.accepted.max === 200 &&
  o.continue.min === 50 &&
  o.continue.max === 140 &&
  o.clickMax === 201;

/**
 * Issue 20's bookingAmounts (label, accepted, continue, clickMax, perType, slidingScale) in
 * issue 30's shape (decision 0032): a type with a range of its own keeps it; a type without one
 * gets what her page let through (accepted ∩ continue ∩ up to clickMax), unless she never changed
 * the spec's numbers or that leaves nothing, when it gets the seeded range. Her sentence becomes
 * the note after the ranges, less the old default's ranges sentence it may begin with.
 */
export function upgradeBookingAmounts(o: Issue20Amounts): BookingAmounts {
  const seeded = DEFAULT_SETTINGS.bookingAmounts;
  const general: DollarRange = {
    min: Math.max(o.accepted.min, o.continue.min),
    max: Math.min(o.accepted.max, o.continue.max, o.clickMax),
  };
  const rangeOf = (k: SessionTypeKey) => {
    const own = o.perType[k];
    const r = isRange(own) ? own : untouched(o) || general.min > general.max ? seeded.ranges[k] : general;
    return { min: r.min, max: r.max, note: seeded.ranges[k].note };
  };
  // The ranges' sentence is now written from the ranges: hers loses it when it still begins so.
  const sentence = o.slidingScale.trim();
  const note = sentence.startsWith(ISSUE_20_RANGES_SENTENCE) ? sentence.slice(ISSUE_20_RANGES_SENTENCE.length).trim() : sentence;
  return {
    ranges: { individualYoga: rangeOf('individualYoga'), yogaTherapy: rangeOf('yogaTherapy') },
    slidingScaleNote: note.slice(0, 600),
  };
}

/** A stored value in today's shape where an upgrade knows its older one; otherwise as stored. */
export function upgradeStored(key: SettingsKey, value: unknown): unknown {
  if (key === 'bookingAmounts' && isIssue20Amounts(value)) return upgradeBookingAmounts(value);
  return value;
}
