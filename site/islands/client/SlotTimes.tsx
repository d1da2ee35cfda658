import { localTimeWithZone } from '../../lib/calendar';

/**
 * One day's free times as buttons, the chosen one pressed: the booking page's list and the
 * guided booking's, written once.
 */
export function SlotTimes(props: {
  label: string;
  slots: readonly { _id: string; startsAt: string }[];
  chosen: string | null;
  zone: string;
  onChoose: (slotId: string) => void;
}) {
  return (
    <ul className="slot-list" aria-label={props.label}>
      {props.slots.map((s) => (
        <li key={s._id}>
          <button
            type="button"
            data-slot={s._id}
            className={`button button-small ${props.chosen === s._id ? '' : 'button-quiet'}`}
            aria-pressed={props.chosen === s._id}
            onClick={() => props.onChoose(s._id)}
          >
            {localTimeWithZone(s.startsAt, props.zone)}
          </button>
        </li>
      ))}
    </ul>
  );
}
