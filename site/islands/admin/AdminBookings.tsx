import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { adminScreen } from './AdminShell';
import {
  AdminTable,
  FilterNote,
  ModalDialog,
  MonthFolds,
  byMonth,
  confirmAndDelete,
  formatDay,
  formatWhen,
  openMonths,
  SearchField,
  ShowMore,
  useFocusRow,
  useListFilter,
  type FocusRowProps,
} from './admin-ui';
import { MAX_PAGE_SIZE, NEXT_CURSOR_HEADER, PAGE_SIZE, pageAddress } from '../../../contract/paging.ts';
import { request } from '../../lib/http';
import { confirmDialog, showAlert } from '../../lib/alert';
import { usd } from '../../lib/money';
import { publicConfig } from '../../lib/config';
import {
  FILL_ALL_SLOT_FIELDS,
  MAX_SLOTS_PER_REQUEST,
  SESSION_DELETED,
  SLOTS_ADDED,
  NO_SLOTS_ADDED,
  SLOT_DELETED,
  PLACE_MAX,
  placeLink,
  repeatSlots,
  type AdminSlotList,
  type AdminSlotsView,
  type CancellationView,
  type BookedSlotView,
  type SlotPlaceView,
  type SlotsAddedView,
  type SlotView,
} from '../../../contract/slots.ts';
import { Checkbox, SelectInput, TextInput } from '../Field';
import { Listing } from '../Listing';
import { overlapsNote } from './overlaps';

type Repeat = 'none' | 'daily' | 'weekly';
const REPEAT_CHOICES = Object.entries({ none: 'Does not repeat', daily: 'Daily', weekly: 'Weekly' } satisfies Record<Repeat, string>);

/** SPEC.md section 9: the admin's slot lists refresh every 60 seconds. */
const REFRESH_MS = 60_000;

const clientName = (s: BookedSlotView) => [s.firstName, s.lastName].filter(Boolean).join(' ') || 'Unknown client';

function AddSlotForm(props: { onAdded: (dates: string[]) => Promise<void> }) {
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const [repeat, setRepeat] = useState<Repeat>('none');
  const [occurrences, setOccurrences] = useState('1');
  const [place, setPlace] = useState('');
  const [online, setOnline] = useState(false);
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
    // No place typed: the server gives each slot her default place (her settings).
    const slots = repeatSlots(date, time, repeat, count)
      .map((s) => (place.trim() ? { ...s, place: place.trim() } : s))
      // Online (issue 35): booking it sends its client her meeting room link.
      .map((s) => (online ? { ...s, online: true } : s));
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
    await props.onAdded(slots.map((s) => s.date));
    const skipped = res.data.skipped ?? 0;
    if (res.data.added === 0) {
      await showAlert({ icon: 'info', title: NO_SLOTS_ADDED });
      return;
    }
    await showAlert({
      icon: 'success',
      title: SLOTS_ADDED,
      text:
        [
          skipped > 0 ? `${skipped} of them already existed at that date and time and ${skipped === 1 ? 'was' : 'were'} skipped.` : '',
          ...(res.data.warnings ?? []),
          // Issue 35: added all the same, but not offered while what it overlaps stands.
          overlapsNote(res.data),
        ]
          .filter(Boolean)
          .join(' ') || undefined,
    });
  }

  return (
    <>
      <form className="form-row" onSubmit={submit} noValidate aria-label="Add slots" aria-describedby="slot-zone-note">
        <TextInput id="slot-date" label="Date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        <TextInput id="slot-time" label="Time" type="time" value={time} onChange={(e) => setTime(e.target.value)} />
        <SelectInput id="slot-repeat" label="Repeat" choices={REPEAT_CHOICES} value={repeat} onChange={(e) => setRepeat(e.target.value as Repeat)} />
        <TextInput
          id="slot-occurrences"
          label="Occurrences"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_SLOTS_PER_REQUEST}
          step={1}
          value={repeat === 'none' ? '1' : occurrences}
          disabled={repeat === 'none'}
          onChange={(e) => setOccurrences(e.target.value)}
        />
        <div className="field slot-place-field">
          <label htmlFor="slot-place">Place (optional)</label>
          <span className="field-hint" id="slot-place-hint">
            An address or an online link (https://…). Empty: your default place.
          </span>
          <input id="slot-place" value={place} maxLength={PLACE_MAX} aria-describedby="slot-place-hint" onChange={(e) => setPlace(e.target.value)} />
        </div>
        <div className="field slot-online-field">
          <Checkbox id="slot-online" label="Online" checked={online} aria-describedby="slot-online-hint" onChange={(e) => setOnline(e.target.checked)} />
          <span className="field-hint" id="slot-online-hint">
            Booking it sends the client your meeting room link (Settings).
          </span>
        </div>
        <div>
          <button className="button" type="submit" disabled={sending}>
            Add slots
          </button>
        </div>
      </form>
      <p className="muted" id="slot-zone-note">
        Date and time are in {zone}, as are the times in the lists below. A daily or weekly repeat adds that many slots, a day or a week apart; a slot that
        already exists at that date and time is skipped.
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

/**
 * Where a session happens: an online link opens in a new tab, an address reads as text. An online
 * slot (issue 35) says so, and once booked shows the video link its client was sent.
 */
function PlaceText({ place, online, link }: { place: string; online?: boolean; link?: string }) {
  if (online) {
    return (
      <span data-place data-online>
        Online
        {link ? (
          <>
            {': '}
            <a href={link} target="_blank" rel="noopener noreferrer">
              {link}
            </a>
          </>
        ) : (
          <span className="muted"> (video link sent when booked)</span>
        )}
      </span>
    );
  }
  if (!place) return <span className="muted">No place set</span>;
  const placeUrl = placeLink(place);
  return placeUrl ? (
    <a href={placeUrl} target="_blank" rel="noopener noreferrer" data-place>
      {place}
    </a>
  ) : (
    <span data-place>{place}</span>
  );
}

/**
 * Changes one slot's place (PUT /api/bookings/{id}/place, issue 20). A booked session to come is
 * news to its client: the server mails them, and the message says so.
 */
function PlaceButton(props: { slot: SlotView; what: string; onSaved: () => Promise<void> }) {
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState(props.slot.place);
  const [saving, setSaving] = useState(false);

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    let res;
    try {
      res = await request<SlotPlaceView>('PUT', `/api/bookings/${encodeURIComponent(props.slot._id)}/place`, { body: { place }, session: 'admin' });
    } catch {
      res = null;
    }
    setSaving(false);
    if (!res || !res.ok) {
      await showAlert({ icon: 'error', title: 'Place not saved.', text: res?.data.message ?? 'The server could not be reached. Please try again.' });
      return;
    }
    setOpen(false);
    await props.onSaved();
    await showAlert({ icon: 'success', title: res.data.message });
  }

  return (
    <>
      <button
        className="button button-quiet button-small"
        type="button"
        onClick={() => {
          setPlace(props.slot.place);
          setOpen(true);
        }}
      >
        Place<span className="sr-only"> {props.what}</span>
      </button>
      {open && (
        <ModalDialog title={`Place ${props.what}`} onClose={() => setOpen(false)}>
          <form className="product-form" onSubmit={(e) => void save(e)} noValidate>
            <TextInput
              id={`place-${props.slot._id}`}
              label="Place"
              hint="An address or an online link (https://…); empty for none."
              value={place}
              maxLength={PLACE_MAX}
              onChange={(e) => setPlace(e.target.value)}
            />
            <div className="card-actions">
              <button className="button button-small" type="submit" disabled={saving}>
                Save the place
              </button>
            </div>
          </form>
        </ModalDialog>
      )}
    </>
  );
}

/**
 * Booked or passed sessions, a fold per month (issue 30): her month open (or the nearest the list
 * has), and the focused session's; every month when the list is narrowed to a few days.
 */
function BookedTable(props: {
  caption: string;
  sessions: BookedSlotView[];
  onDelete: (s: BookedSlotView) => void;
  onPlaced: () => Promise<void>;
  allOpen: boolean;
  focus: string | undefined;
  rowProps: (id: string) => FocusRowProps;
}) {
  const groups = byMonth(props.sessions, (s) => s.date.slice(0, 7));
  return (
    <MonthFolds groups={groups} open={openMonths(groups, { all: props.allOpen, focused: (s) => s._id === props.focus })} units={['session', 'sessions']}>
      {(g) => (
        <AdminTable caption={`${props.caption}, ${g.label}`} columns={['Time', 'Place', 'Name', 'Email', 'Session type', 'Message', 'Actions']}>
          {g.items.map((s) => (
            <BookedRow key={s._id} session={s} onDelete={props.onDelete} onPlaced={props.onPlaced} focus={props.rowProps(s._id)} />
          ))}
        </AdminTable>
      )}
    </MonthFolds>
  );
}

function BookedRow({
  session: s,
  onDelete,
  onPlaced,
  focus,
}: {
  session: BookedSlotView;
  onDelete: (s: BookedSlotView) => void;
  onPlaced: () => Promise<void>;
  focus: FocusRowProps;
}) {
  return (
    <tr data-slot-row={s._id} data-slot={`${s.date} ${s.time}`} {...focus}>
      <td>{formatWhen(s.startsAt)}</td>
      <td>
        <PlaceText place={s.place} online={s.online} link={s.link} />
      </td>
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
        <div className="row-actions">
          <PlaceButton slot={s} what={`of the session of ${clientName(s)} at ${formatWhen(s.startsAt)}`} onSaved={onPlaced} />
          <DeleteButton label="Delete session" what={`of ${clientName(s)} at ${formatWhen(s.startsAt)}`} onClick={() => onDelete(s)} />
        </div>
      </td>
    </tr>
  );
}

function BookingsPanel() {
  // The Today panel's sessions of today or of the week: booked and passed ones on those days.
  const filter = useListFilter();
  const ranged = Boolean(filter.from || filter.to);
  const [query, setQuery] = useState('');
  const [lists, setLists] = useState<AdminSlotsView | null>(null);
  // Each list a page at a time (issue 36): where its next page starts, and the one being fetched.
  const [next, setNext] = useState<NonNullable<AdminSlotsView['next']>>({});
  const [loadingMore, setLoadingMore] = useState<AdminSlotList | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const mounted = useRef(true);
  // The rows she opened with Show more: a refresh asks for as many (up to a page's most), so the
  // minute's refresh does not fold them away.
  const opened = useRef(0);
  // Which question is the latest: a search typed fast asks many, and only the last is drawn.
  const asked = useRef(0);
  // A Today item's session (issue 30): its month opens, and it is scrolled to and marked once drawn.
  const { focus, rowProps } = useFocusRow(lists !== null);
  // The months of the slots she just added open, so she sees them.
  const [added, setAdded] = useState<string[]>([]);
  const address = pageAddress('/api/bookings', { from: filter.from, to: filter.to, q: query.trim() || undefined });

  const load = useCallback(async () => {
    const question = ++asked.current;
    const limit = Math.min(MAX_PAGE_SIZE, Math.max(PAGE_SIZE, opened.current));
    let res;
    try {
      res = await request<AdminSlotsView>('GET', pageAddress(address, { limit: limit === PAGE_SIZE ? undefined : limit }), { session: 'admin' });
    } catch {
      res = null;
    }
    if (!mounted.current || question !== asked.current) return;
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
    setNext(res.data.next ?? {});
  }, [address]);

  /** The next page of one list, drawn below the rows she has. */
  async function more(name: AdminSlotList) {
    const cursor = next[name];
    if (!cursor) return;
    const question = asked.current;
    setLoadingMore(name);
    let res;
    try {
      res = await request<BookedSlotView[]>('GET', pageAddress(address, { list: name }, cursor), { session: 'admin' });
    } catch {
      res = null;
    }
    setLoadingMore(null);
    if (!mounted.current || question !== asked.current) return;
    if (!res || !res.ok || !Array.isArray(res.data)) {
      setLoadFailed(true);
      return;
    }
    const rows = res.data;
    setLists((l) => {
      if (!l) return l;
      const have = new Set(l[name].map((x) => x._id));
      const list = [...l[name], ...rows.filter((x) => !have.has(x._id))];
      opened.current = Math.max(opened.current, list.length);
      return { ...l, [name]: list };
    });
    setNext((n) => ({ ...n, [name]: res.headers?.get(NEXT_CURSOR_HEADER) ?? undefined }));
  }

  const onAdded = useCallback(
    async (dates: string[]) => {
      setAdded((months) => [...months, ...dates.map((d) => d.slice(0, 7))]);
      await load();
    },
    [load],
  );

  useEffect(() => {
    mounted.current = true;
    // A new search or filter starts again from the first pages.
    opened.current = 0;
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
    // Asked first, saying what follows (issue 21): a session to come is refunded and its client mailed.
    const who = `${session.firstName} ${session.lastName}`.trim() || 'The client';
    const upcoming = new Date(session.startsAt).getTime() > Date.now();
    const refund = upcoming && session.amount ? ` Their payment of ${usd(session.amount)} is refunded through PayPal.` : '';
    const text = upcoming ? `${who}’s session is cancelled and they are mailed.${refund}` : 'The passed session is removed from the records. Nobody is mailed.';
    if (!(await confirmAndDelete(`/api/bookings/${encodeURIComponent(session._id)}`, 'Failed to delete session.', text))) return;
    await load();
    await showAlert({ icon: 'success', title: SESSION_DELETED });
  }

  return (
    <>
      <section className="admin-panel" aria-labelledby="add-slot-heading">
        <h2 id="add-slot-heading">Add slots</h2>
        <AddSlotForm onAdded={onAdded} />
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
          (() => {
            const groups = byMonth(lists.availableSlots, (s) => s.date.slice(0, 7));
            return (
              <MonthFolds groups={groups} open={openMonths(groups, { also: added, focused: (s) => s._id === focus })} units={['slot', 'slots']}>
                {(g) => (
                  <ul className="item-list slot-list">
                    {g.items.map((s) => (
                      <li key={s._id} className="item" data-slot-row={s._id} data-slot={`${s.date} ${s.time}`} {...rowProps(s._id)}>
                        <span className="slot-when">
                          {formatWhen(s.startsAt)}
                          <br />
                          <small>
                            <PlaceText place={s.place} online={s.online} />
                          </small>
                        </span>
                        <span className="row-actions">
                          <PlaceButton slot={s} what={`of the slot at ${formatWhen(s.startsAt)}`} onSaved={load} />
                          <DeleteButton label="Delete" what={`slot at ${formatWhen(s.startsAt)}`} onClick={() => void deleteSlot(s)} />
                        </span>
                      </li>
                    ))}
                  </ul>
                )}
              </MonthFolds>
            );
          })()
        )}
        <ShowMore more={Boolean(next.availableSlots)} loading={loadingMore === 'availableSlots'} onMore={() => void more('availableSlots')} what="slots" />
      </section>
      {ranged && (
        <FilterNote>
          {filter.from && filter.from === filter.to
            ? `Booked sessions on ${formatDay(filter.from)}.`
            : `Booked sessions${filter.from ? ` from ${formatDay(filter.from)}` : ''}${filter.to ? ` to ${formatDay(filter.to)}` : ''}.`}
        </FilterNote>
      )}
      <div className="admin-panel">
        <SearchField
          label="Search sessions by client name or e-mail"
          value={query}
          onChange={setQuery}
          shown={(lists?.bookedSlots.length ?? 0) + (lists?.passedSessions.length ?? 0)}
          more={Boolean(next.bookedSlots || next.passedSessions)}
        />
      </div>
      {(
        [
          ['booked', 'Booked Slots', 'bookedSlots', 'No booked slots'],
          ['passed', 'Passed Sessions', 'passedSessions', 'No passed sessions'],
        ] as const
      ).map(([id, title, key, empty]) => (
        <section className="admin-panel" aria-labelledby={`${id}-heading`} key={id}>
          <h2 id={`${id}-heading`}>{title}</h2>
          {lists === null ? (
            <p role="status">Loading…</p>
          ) : lists[key].length === 0 ? (
            <p>{empty}</p>
          ) : (
            <BookedTable
              caption={title}
              sessions={lists[key]}
              onDelete={(s) => void deleteSession(s)}
              onPlaced={load}
              allOpen={ranged || query.trim() !== ''}
              focus={focus}
              rowProps={rowProps}
            />
          )}
          <ShowMore more={Boolean(next[key])} loading={loadingMore === key} onMore={() => void more(key)} what={title.toLowerCase()} />
        </section>
      ))}
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
      <Listing items={list} empty="No cancellations">
        {(list) => (
          <AdminTable caption="Cancelled by Clients" columns={['Session', 'Client', 'Payment', 'Refund', 'Cancelled']}>
            {list.map((c) => (
              <tr key={c._id} data-cancellation={c._id} className={c.refundState === 'failed' ? 'attention' : undefined}>
                <td>
                  {formatWhen(c.startsAt)} · {c.sessionType}
                </td>
                <td>
                  {c.firstName} {c.lastName} · {c.email}
                </td>
                <td>{c.couponUsed ? 'Coupon' : c.amount !== null ? `$${c.amount.toFixed(2)}${c.paypalOrderId ? ` (PayPal ${c.paypalOrderId})` : ''}` : '—'}</td>
                <td title={c.refundNote ?? undefined}>
                  {c.refundState === 'failed' ? <strong>{refundText[c.refundState]}</strong> : refundText[c.refundState]}
                </td>
                <td>{formatWhen(c.cancelledAt)}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </Listing>
    </section>
  );
}

export default adminScreen('/admin/bookings', 'Bookings', BookingsPanel);
