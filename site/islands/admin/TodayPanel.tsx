import { useEffect, useId, useState, type ReactNode } from 'react';
import { formatDay, formatTime, formatWhen } from './admin-ui';
import { request } from '../../lib/http';
import { usd, usdFromCents } from '../../lib/money';
import { placeLink } from '../../../contract/slots.ts';
import { mailKindLabel } from '../../../contract/mail.ts';
import type { TodayGroup, TodayItemLink, TodaySession, TodayView } from '../../../contract/backoffice.ts';
import { rosterPath } from '../../../contract/roster.ts';
import { refundOwedWords } from '../../../contract/packages.ts';
import { missingLicenceWords } from '../../../contract/food.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Where a session happens: an online link opens, an address reads as text. */
function Place({ place }: { place: string }) {
  if (!place) return null;
  const link = placeLink(place);
  return (
    <>
      {' · '}
      {link ? (
        <a className="today-place" href={link} target="_blank" rel="noopener noreferrer">
          Online link
        </a>
      ) : (
        place
      )}
    </>
  );
}

/**
 * One group: its name and count are the link to the list narrowed to what was counted (the
 * server's href), and the whole card is that link's target for a thumb; its first few items
 * follow, each a link to its own row on that list (issue 30; `extra` sits beside the link, for
 * a link of its own). `testKey` names it for the tests (data-today-group).
 */
function Group<T>(props: {
  name: string;
  group: TodayGroup<T>;
  summary?: ReactNode;
  empty: string;
  item: (item: T & TodayItemLink) => { key: string; content: ReactNode; extra?: ReactNode };
  attention?: boolean;
  testKey: string;
}) {
  const id = useId();
  const { group } = props;
  const more = group.count - group.items.length;
  return (
    <li className={props.attention && group.count > 0 ? 'today-group attention' : 'today-group'} data-today-group={props.testKey} data-count={group.count}>
      <h3 id={id}>
        <a href={group.href}>
          {props.name} <span className="today-count">{group.count}</span>
        </a>
      </h3>
      {props.summary && group.count > 0 && <p className="today-summary">{props.summary}</p>}
      {group.count === 0 ? (
        <p className="muted">{props.empty}</p>
      ) : (
        <ul className="today-items">
          {group.items.map((i) => {
            const { key, content, extra } = props.item(i);
            return (
              <li key={key} data-today-item>
                <a className="today-item" href={i.href}>
                  {content}
                </a>
                {extra}
              </li>
            );
          })}
          {more > 0 && <li className="muted">and {more} more</li>}
        </ul>
      )}
    </li>
  );
}

const session = (s: TodaySession, withDay: boolean) => ({
  key: s._id,
  content: (
    <>
      <strong>{withDay ? formatDay(s.date, s.time) : formatTime(s.time)}</strong> · {s.clientName || 'A client'}
      <span className="muted"> · {s.sessionType}</span>
    </>
  ),
  extra: <Place place={s.place} />,
});

/**
 * The top of /admin/dashboard (issue 20): what needs her today, from GET /api/admin/today. Each
 * group is a tap from its list. A failure says so here and leaves the rest of the page working.
 */
export default function TodayPanel() {
  const headingId = useId();
  const [today, setToday] = useState<TodayView | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    request<TodayView>('GET', '/api/admin/today', { session: 'admin' })
      .then((r) => (r.ok && r.data.ordersToDeliver ? setToday(r.data) : setFailed(true)))
      .catch(() => setFailed(true));
  }, []);

  return (
    <section className="admin-panel today" aria-labelledby={headingId} data-today>
      <h2 id={headingId}>Today{today && <span className="today-date"> · {formatDay(today.today)}</span>}</h2>
      {/* Issue 35: the whole week, with her gigs and busy times, a tap away. */}
      <p className="today-week">
        <a className="button button-quiet button-small" href="/admin/week">
          Your week
        </a>
      </p>
      {failed ? (
        <p role="alert" className="admin-error">
          Today’s summary could not be loaded. The lists below are up to date; reload the page to try again.
        </p>
      ) : !today ? (
        <p role="status">Loading…</p>
      ) : (
        <ul className="today-groups">
          {/* Issue 48: what a lawful label still lacks under her licence (seeded with no number), until she sets it. */}
          {today.foodLicence.missing.length > 0 && (
            <li className="today-group attention" data-today-group="foodLicence" data-count={today.foodLicence.missing.length}>
              <h3>
                <a href={today.foodLicence.href}>Your food licence</a>
              </h3>
              <p className="today-summary">{missingLicenceWords(today.foodLicence.missing)}</p>
              <p>
                <a className="today-item" href={today.foodLicence.href}>
                  {today.foodLicence.missing.includes('licence number') ? 'Add your licence number in Settings' : 'Add them in Settings'}
                </a>
              </p>
            </li>
          )}
          {/* Issue 48: a newsletter carries her postal address (CAN-SPAM); without one none can be sent. */}
          {today.postalAddress.missing && (
            <li className="today-group attention" data-today-group="postalAddress" data-count={1}>
              <h3>
                <a href={today.postalAddress.href}>Your postal address</a>
              </h3>
              <p className="today-summary">Newsletters need your postal address (a PO box will do) before one can be sent.</p>
              <p>
                <a className="today-item" href={today.postalAddress.href}>
                  Add it on the Newsletter page
                </a>
              </p>
            </li>
          )}
          <Group
            testKey="ordersToDeliver"
            name="Orders to deliver"
            group={today.ordersToDeliver}
            attention
            summary={[
              today.ordersToDeliver.toShip > 0 ? `${today.ordersToDeliver.toShip} to ship` : '',
              today.ordersToDeliver.toHandOver > 0 ? `${today.ordersToDeliver.toHandOver} to hand over` : '',
            ]
              .filter(Boolean)
              .join(' · ')}
            empty="Nothing to ship or hand over."
            item={(o) => ({
              key: o._id,
              content: (
                <>
                  <strong>{o.payerName || 'A buyer'}</strong> · {usd(o.total)} · {o.isLocalPickup ? 'pickup' : 'ship'}
                  <span className="muted"> · {formatWhen(o.createdAt)}</span>
                </>
              ),
            })}
          />
          {/* Issue 30: pickups are hers to hand over until picked up, ready or not. */}
          <Group
            testKey="comingPickups"
            name="Pickups coming"
            group={today.comingPickups}
            summary={
              today.comingPickups.ready > 0
                ? `${today.comingPickups.ready} ready, ${today.comingPickups.count - today.comingPickups.ready} to make ready`
                : undefined
            }
            empty="No pickups waiting."
            item={(o) => ({
              key: o._id,
              content: (
                <>
                  <strong>{o.payerName || 'A buyer'}</strong> · {usd(o.total)} · {o.status === 'ready_for_pickup' ? 'ready' : 'to make ready'}
                  <span className="muted"> · {formatWhen(o.createdAt)}</span>
                </>
              ),
            })}
          />
          <Group testKey="sessionsToday" name="Sessions today" group={today.sessionsToday} empty="No sessions today." item={(s) => session(s, false)} />
          <Group
            testKey="sessionsThisWeek"
            name="Sessions this week"
            group={today.sessionsThisWeek}
            empty="No sessions in the next seven days."
            item={(s) => session(s, true)}
          />
          <Group
            testKey="nextClasses"
            name="Next classes"
            group={today.nextClasses}
            summary={today.nextClasses.waitlisted > 0 ? `${plural(today.nextClasses.waitlisted, 'person', 'people')} on waitlists` : undefined}
            empty="No classes in the next seven days."
            item={(c) => ({
              key: c._id,
              content: (
                <>
                  <strong>{c.title}</strong> · {formatDay(c.date, c.time)}
                  {c.location && <span className="muted"> · {c.location}</span>}
                  <br />
                  <span className={c.taken >= c.capacity ? 'today-full' : undefined}>
                    {c.taken} of {c.capacity} places taken
                  </span>
                  {c.waitlist > 0 && <> · {plural(c.waitlist, 'person', 'people')} waiting</>}
                </>
              ),
              // Issue 34: at the door, one tap from Today to the class's roster.
              extra: (
                <a className="today-roster" href={rosterPath(c._id)}>
                  Roster
                  <span className="sr-only">
                    {' '}
                    of {c.title}, {formatDay(c.date, c.time)}
                  </span>
                </a>
              ),
            })}
          />
          {/* One group (issue 29): a newsletter's failed mails and the other mails that did not leave. */}
          <Group
            testKey="failedMails"
            name="Mails that failed"
            group={today.failedMails}
            attention
            empty="Every mail went out."
            item={(m) =>
              m.source === 'newsletter'
                ? {
                    key: `newsletter-${m.newsletterId}`,
                    content: (
                      <>
                        <strong>{m.subject}</strong> · newsletter, {plural(m.failed, 'mail')} failed
                      </>
                    ),
                  }
                : {
                    key: m.id,
                    content: (
                      <>
                        <strong>{mailKindLabel(m.kind)}</strong> to {m.to} · {m.state === 'skipped' ? 'skipped' : 'failed'}
                      </>
                    ),
                  }
            }
          />
          {/* Issue 47: refunds PayPal refused for now; the site tries again until they are made. */}
          <Group
            testKey="refundsOwed"
            name="Refunds owed"
            group={today.refundsOwed}
            attention
            summary={`${usdFromCents(today.refundsOwed.cents)} owed; the site tries PayPal again until each is made`}
            empty="No refund is owed."
            item={(r) => ({
              key: r._id,
              content: (
                <>
                  <strong>{refundOwedWords(r)}</strong>
                  {r.clientName && <> · {r.clientName}</>}
                  <span className="muted">
                    {' '}
                    · {plural(r.attempts, 'try', 'tries')} so far{r.lastError ? ` (${r.lastError})` : ''}
                  </span>
                </>
              ),
            })}
          />
          {/* Issue 48: a product's label lacks a fact until she fills it in its form. */}
          <Group
            testKey="labelFacts"
            name="Labels to complete"
            group={today.labelFacts}
            attention
            empty="Every product’s label has its facts."
            item={(p) => ({
              key: p._id,
              content: (
                <>
                  <strong>{p.name}</strong>
                  <span className="muted"> · needs {p.missing.join(', ')}</span>
                </>
              ),
            })}
          />
          {/* Issue 30: the classes she taught and was not paid for, oldest first. */}
          <Group
            testKey="unpaidGigs"
            name="Unpaid gigs"
            group={today.unpaidGigs}
            attention
            summary={`${usdFromCents(today.unpaidGigs.cents)} owed`}
            empty="Every class taught is paid."
            item={(g) => ({
              key: g._id,
              content: (
                <>
                  <strong>{g.className}</strong> · {usdFromCents(g.rateCents)} · {plural(g.ageDays, 'day')} waiting
                  <span className="muted">
                    {' '}
                    · {g.location}, {formatDay(g.date)}
                  </span>
                </>
              ),
            })}
          />
          {/* Issue 34: a private tasting asked for on /chocolates waits for her quote. */}
          <Group
            testKey="tastingRequests"
            name="Tasting requests"
            group={today.tastingRequests}
            attention
            empty="No tasting requests to answer."
            item={(t) => ({
              key: t._id,
              content: (
                <>
                  <strong>{t.name}</strong> · {t.occasion} · {plural(t.guests, 'guest')}
                  <span className="muted"> · {t.dates.map((d) => formatDay(d)).join(', ')}</span>
                </>
              ),
            })}
          />
          <Group
            testKey="newSignups"
            name="New sign-ups"
            group={today.newSignups}
            empty="No sign-ups in the last seven days."
            item={(s) => ({
              key: s._id,
              content: (
                <>
                  <strong>{s.name}</strong> · {s.classTitle}
                  <span className="muted"> · {formatDay(s.date)}</span>
                </>
              ),
            })}
          />
          <Group
            testKey="newClients"
            name="New clients"
            group={today.newClients}
            empty="No new clients in the last seven days."
            item={(u) => ({
              key: u._id,
              content: (
                <>
                  <strong>{u.name || u.email}</strong>
                  <span className="muted"> · {formatWhen(u.createdAt)}</span>
                </>
              ),
            })}
          />
        </ul>
      )}
    </section>
  );
}
