import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import AdminShell from './AdminShell';
import { AdminTable, confirmAndDelete, formatAdminTime } from './admin-ui';
import { request } from '../../lib/http';
import { confirmDialog, showAlert } from '../../lib/alert';
import { publicConfig } from '../../lib/config';
import {
  FILL_ALL_SLOT_FIELDS,
  MAX_SLOTS_PER_REQUEST,
  SESSION_DELETED,
  SLOTS_ADDED,
  SLOT_DELETED,
  repeatSlots,
  type AdminSlotsView,
  type CancellationView,
  type BookedSlotView,
  type SlotsAddedView,
  type SlotView,
} from '../../../contract/slots.ts';

type Repeat = 'none' | 'daily' | 'weekly';
const repeatLabels: Record<Repeat, string> = { none: 'Does not repeat', daily: 'Daily', weekly: 'Weekly' };

/** SPEC.md section 9: the admin's slot lists refresh every 60 seconds. */
const REFRESH_MS = 60_000;

const clientName = (s: BookedSlotView) => [s.firstName, s.lastName].filter(Boolean).join(' ') || 'Unknown client';

function AddSlotForm(props: { onAdded: () => Promise<void> }) {
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const [repeat, setRepeat] = useState<Repeat>('none');
  const [occurrences, setOccurrences] = useState('1');
  const [sending, setSending] = useState(false);
  const [zone, setZone] = useState('the teacher’s time zone');
  useEffect(() => {
    publicConfig()
      .then((c) => setZone(c.timezone.replace(/_/g, ' ')))
      .catch(() => {});
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!date || !time) {
      await showAlert({ icon: 'warning', title: FILL_ALL_SLOT_FIELDS });
      return;
    }
    const count = repeat === 'none' ? 1 : Number(occurrences);
    if (!Number.isInteger(count) || count < 1 || count > MAX_SLOTS_PER_REQUEST) {
      await showAlert({ icon: 'warning', title: 'Failed to add slot.', text: `Occurrences must be a whole number from 1 to ${MAX_SLOTS_PER_REQUEST}.` });
      return;
    }
    const slots = repeatSlots(date, time, repeat, count);
    if (!(await confirmDialog({ title: `This will add ${slots.length} slots. Proceed?`, confirmText: 'Yes', cancelText: 'Cancel' }))) return;
    setSending(true);
    let res;
    try {
      res = await request<SlotsAddedView>('POST', '/api/bookings', { body: { slots }, session: 'admin' });
    } catch {
      res = null;
    }
    setSending(false);
    if (!res || !res.ok) {
      await showAlert({ icon: 'error', title: 'Failed to add slot.', text: res?.data.message });
      return;
    }
    await props.onAdded();
    const skipped = res.data.skipped ?? 0;
    await showAlert({
      icon: 'success',
      title: SLOTS_ADDED,
      text:
        [
          skipped > 0 ? `${skipped} of them already existed at that date and time and ${skipped === 1 ? 'was' : 'were'} skipped.` : '',
          ...(res.data.warnings ?? []),
        ]
          .filter(Boolean)
          .join(' ') || undefined,
    });
  }

  return (
    <>
      <form className="form-row" onSubmit={submit} noValidate aria-label="Add slots" aria-describedby="slot-zone-note">
        <div className="field">
          <label htmlFor="slot-date">Date</label>
          <input id="slot-date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="slot-time">Time</label>
          <input id="slot-time" type="time" value={time} onChange={(e) => setTime(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="slot-repeat">Repeat</label>
          <select id="slot-repeat" value={repeat} onChange={(e) => setRepeat(e.target.value as Repeat)}>
            {(Object.keys(repeatLabels) as Repeat[]).map((r) => (
              <option key={r} value={r}>
                {repeatLabels[r]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="slot-occurrences">Occurrences</label>
          <input
            id="slot-occurrences"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_SLOTS_PER_REQUEST}
            step={1}
            value={repeat === 'none' ? '1' : occurrences}
            disabled={repeat === 'none'}
            onChange={(e) => setOccurrences(e.target.value)}
          />
        </div>
        <div>
          <button className="button" type="submit" disabled={sending}>
            Add slots
          </button>
        </div>
      </form>
      <p className="muted" id="slot-zone-note">
        Date and time are in {zone}. A daily or weekly repeat adds that many slots, a day or a week apart; a slot that already exists at that date and time is
        skipped. The lists below show times in your own time zone.
      </p>
    </>
  );
}

function DeleteButton(props: { label: string; what: string; onClick: () => void }) {
  return (
    <button className="button danger button-small" type="button" onClick={props.onClick}>
      {props.label}
      <span className="sr-only"> {props.what}</span>
    </button>
  );
}

function BookedTable(props: { caption: string; sessions: BookedSlotView[]; onDelete: (s: BookedSlotView) => void }) {
  return (
    <AdminTable caption={props.caption} columns={['Time', 'Name', 'Email', 'Session type', 'Message', 'Actions']}>
      {props.sessions.map((s) => (
        <tr key={s._id} data-slot-row={s._id} data-slot={`${s.date} ${s.time}`}>
          <td>{formatAdminTime(s.startsAt)}</td>
          <td>{clientName(s)}</td>
          <td>{s.email ? <a href={`mailto:${s.email}`}>{s.email}</a> : ''}</td>
          <td>
            {s.sessionType}
            {/* How it was paid: the coupon (capped per client) or PayPal; a note when the payment needed recovery. */}
            <br />
            <small data-payment>{s.couponUsed ? 'Coupon' : s.amount !== null ? `Paid $${s.amount.toFixed(2)}` : ''}</small>
            {s.paymentNote && (
              <>
                <br />
                <small data-payment-note>{s.paymentNote}</small>
              </>
            )}
          </td>
          <td className="pre-wrap">{s.message}</td>
          <td>
            <DeleteButton label="Delete session" what={`of ${clientName(s)} at ${formatAdminTime(s.startsAt)}`} onClick={() => props.onDelete(s)} />
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}

function BookingsPanel() {
  const [lists, setLists] = useState<AdminSlotsView | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const mounted = useRef(true);

  const load = useCallback(async () => {
    let res;
    try {
      res = await request<AdminSlotsView>('GET', '/api/bookings', { session: 'admin' });
    } catch {
      res = null;
    }
    if (!mounted.current) return;
    if (!res || !res.ok || !Array.isArray(res.data.availableSlots)) {
      setLoadFailed(true);
      setLists((l) => l ?? { availableSlots: [], bookedSlots: [], passedSessions: [] });
      return;
    }
    setLoadFailed(false);
    setLists({
      availableSlots: res.data.availableSlots,
      bookedSlots: res.data.bookedSlots ?? [],
      passedSessions: res.data.passedSessions ?? [],
      cancellations: res.data.cancellations ?? [],
    });
  }, []);

  useEffect(() => {
    mounted.current = true;
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      mounted.current = false;
      clearInterval(timer);
    };
  }, [load]);

  async function deleteSlot(slot: SlotView) {
    if (!(await confirmAndDelete(`/api/bookings/${encodeURIComponent(slot._id)}`, 'Error Deleting Slot'))) return;
    await load();
    await showAlert({ icon: 'success', title: SLOT_DELETED });
  }

  async function deleteSession(session: BookedSlotView) {
    if (!(await confirmAndDelete(`/api/bookings/${encodeURIComponent(session._id)}`, 'Failed to delete session.'))) return;
    await load();
    await showAlert({ icon: 'success', title: SESSION_DELETED });
  }

  return (
    <>
      <section className="admin-panel" aria-labelledby="add-slot-heading">
        <h2 id="add-slot-heading">Add slots</h2>
        <AddSlotForm onAdded={load} />
      </section>
      {loadFailed && (
        <p role="alert" className="admin-error">
          Failed to fetch slots. The lists below may be out of date.
        </p>
      )}
      <section className="admin-panel" aria-labelledby="available-heading">
        <h2 id="available-heading">Available Slots</h2>
        {lists === null ? (
          <p role="status">Loading…</p>
        ) : lists.availableSlots.length === 0 ? (
          <p>No slots available</p>
        ) : (
          <ul className="item-list slot-list">
            {lists.availableSlots.map((s) => (
              <li key={s._id} className="item" data-slot-row={s._id} data-slot={`${s.date} ${s.time}`}>
                <span>{formatAdminTime(s.startsAt)}</span>
                <DeleteButton label="Delete" what={`slot at ${formatAdminTime(s.startsAt)}`} onClick={() => void deleteSlot(s)} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="admin-panel" aria-labelledby="booked-heading">
        <h2 id="booked-heading">Booked Slots</h2>
        {lists === null ? (
          <p role="status">Loading…</p>
        ) : lists.bookedSlots.length === 0 ? (
          <p>No booked slots</p>
        ) : (
          <BookedTable caption="Booked Slots" sessions={lists.bookedSlots} onDelete={(s) => void deleteSession(s)} />
        )}
      </section>
      <section className="admin-panel" aria-labelledby="passed-heading">
        <h2 id="passed-heading">Passed Sessions</h2>
        {lists === null ? (
          <p role="status">Loading…</p>
        ) : lists.passedSessions.length === 0 ? (
          <p>No passed sessions</p>
        ) : (
          <BookedTable caption="Passed Sessions" sessions={lists.passedSessions} onDelete={(s) => void deleteSession(s)} />
        )}
      </section>
      <Cancellations list={lists?.cancellations ?? null} />
    </>
  );
}

const refundText: Record<CancellationView['refundState'], string> = {
  none: 'Nothing to refund',
  pending: 'Refund under way',
  refunded: 'Refunded',
  failed: 'REFUND BY HAND',
};

/** Sessions clients cancelled themselves (issue 15): a refund PayPal refused is the teacher's to make by hand. */
function Cancellations({ list }: { list: CancellationView[] | null }) {
  return (
    <section className="admin-panel" aria-labelledby="cancelled-heading">
      <h2 id="cancelled-heading">Cancelled by Clients</h2>
      {list === null ? (
        <p role="status">Loading…</p>
      ) : list.length === 0 ? (
        <p>No cancellations</p>
      ) : (
        <AdminTable caption="Cancelled by Clients" columns={['Session', 'Client', 'Payment', 'Refund', 'Cancelled']}>
          {list.map((c) => (
            <tr key={c._id} data-cancellation={c._id} className={c.refundState === 'failed' ? 'attention' : undefined}>
              <td>
                {formatAdminTime(c.startsAt)} · {c.sessionType}
              </td>
              <td>
                {c.firstName} {c.lastName} · {c.email}
              </td>
              <td>{c.couponUsed ? 'Coupon' : c.amount !== null ? `$${c.amount.toFixed(2)}${c.paypalOrderId ? ` (PayPal ${c.paypalOrderId})` : ''}` : '—'}</td>
              <td title={c.refundNote ?? undefined}>{c.refundState === 'failed' ? <strong>{refundText[c.refundState]}</strong> : refundText[c.refundState]}</td>
              <td>{formatAdminTime(c.cancelledAt)}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

export default function AdminBookings() {
  return (
    <AdminShell current="/admin/bookings" title="Bookings">
      {() => <BookingsPanel />}
    </AdminShell>
  );
}
