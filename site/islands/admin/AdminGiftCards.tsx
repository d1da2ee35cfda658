import { useCallback, useEffect, useId, useState, type ChangeEvent } from 'react';
import { adminScreen } from './AdminShell';
import { AdminForm, formatDay, formatWhen, herToday, ModalDialog, send, useAdminList } from './admin-ui';
import { choicesOf, MoneyInput, SelectInput, TextArea, TextInput } from '../Field';
import { Listing } from '../Listing';
import { cardAmounts, giftCardTotals } from './gift-card-totals';
import { request } from '../../lib/http';
import { confirmDialog, showAlert } from '../../lib/alert';
import { typedCents, usdFromCents } from '../../lib/money';
import { addDaysTo } from '../../lib/calendar';
import { adminLinks } from '../../../contract/admin-links.ts';
import { orderReference } from '../../../contract/orders.ts';
import {
  GIFT_CARD_DESIGNS,
  type AdminGiftCardDetailView,
  type AdminGiftCardView,
  type GiftCardDesignKey,
  type GiftCardIssuedView,
  type GiftCardVoidedView,
  type IssueGiftCardRequest,
} from '../../../contract/gift-cards.ts';

/**
 * Her gift cards (issue 33): what was sold and what is still owed, each card with its history,
 * and her own hand on them: issue one (a raffle prize, a make-good), resend a delivered card's
 * mail, void one nobody has received, adjust a balance with a reason. The whole code is shown
 * once, when she issues a card: the server keeps only its hash, so it can never be shown again.
 */

const DESIGN_CHOICES = choicesOf(GIFT_CARD_DESIGNS, { yoga: 'Yoga', chocolates: 'Chocolates' });

/** A ledger row's reason as she reads it (the card's rows: money/ledger.ts); an unknown one as it is. */
const REASON_WORDS: Readonly<Record<string, string>> = {
  bought: 'put on the card',
  used: 'spent',
  returned: 'given back to the card',
  adjusted: 'adjusted by you',
  refunded: 'taken back',
};

const signedUsd = (cents: number) => `${cents < 0 ? '−' : '+'}${usdFromCents(Math.abs(cents))}`;
const cardName = (c: Pick<AdminGiftCardView, 'last4'>) => `card ending ${c.last4}`;

/** Where a card is on its way: voided, delivered, or the day it goes (her day). */
function cardState(c: AdminGiftCardView): string {
  if (c.voidedAt) return `Voided ${formatWhen(c.voidedAt)}`;
  if (c.deliveredAt) return `Delivered ${formatWhen(c.deliveredAt)}`;
  return `Goes ${formatDay(c.sendOn)}`;
}

/** Her figures, in the order she reads them: each kind of money on its own line (issue 50), adding up to what is owed. */
function Totals(props: { cards: readonly AdminGiftCardView[] }) {
  const t = giftCardTotals(props.cards);
  const figures = [
    ['sold', 'Sold', usdFromCents(t.soldCents)],
    ['given', 'Given by you', usdFromCents(t.givenCents)],
    ['adjusted', 'Your adjustments', t.adjustedCents === 0 ? usdFromCents(0) : signedUsd(t.adjustedCents)],
    ['spent', 'Spent', usdFromCents(t.spentCents)],
    ['outstanding', 'Still owed on cards', usdFromCents(t.outstandingCents)],
    ['delivered', 'Delivered', `${t.delivered} ${t.delivered === 1 ? 'card' : 'cards'}`],
  ] as const;
  return (
    <dl className="gift-totals">
      {figures.map(([key, label, value]) => (
        <div key={key}>
          <dt>{label}</dt>
          <dd data-total={key}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The one showing of a new card's code, to read out or write on a card. */
function CodeDialog(props: { issued: GiftCardIssuedView & { to: string; sendOn: string }; onClose: () => void }) {
  const { issued } = props;
  return (
    <ModalDialog title="The card’s code" onClose={props.onClose}>
      <p className="gift-code" data-gift-code>
        {issued.code}
      </p>
      <p>
        Write it down or read it out now: it is not shown again. The card’s mail goes to {issued.to}{' '}
        {issued.sendOn === herToday() ? 'today' : `on ${formatDay(issued.sendOn)}`}.
      </p>
      <button type="button" className="button button-small" onClick={props.onClose}>
        Done
      </button>
    </ModalDialog>
  );
}

/** The issue form's fields as she types them; the day is hers, today until she picks another. */
const blankCard = (today: string) => ({ amount: '', name: '', email: '', message: '', sendOn: today, design: 'yoga' as string });

function IssueCard(props: { onIssued: (issued: GiftCardIssuedView & { to: string; sendOn: string }) => void }) {
  const id = useId();
  const [today] = useState(herToday);
  const [card, setCard] = useState(() => blankCard(today));
  // The server's limit: a card goes within a year.
  const latest = addDaysTo(today, 365);
  const field = (key: keyof typeof card) => ({
    value: card[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => setCard((c) => ({ ...c, [key]: e.target.value })),
  });

  async function issue() {
    const body: IssueGiftCardRequest = {
      amountCents: typedCents(card.amount),
      recipientName: card.name,
      recipientEmail: card.email,
      message: card.message,
      sendOn: card.sendOn,
      design: card.design as GiftCardDesignKey,
    };
    const issued = await send<GiftCardIssuedView>('POST', '/api/admin/gift-cards', body, 'Could not issue the card');
    if (!issued) return;
    setCard(blankCard(today));
    props.onIssued({ ...issued, to: card.name, sendOn: card.sendOn });
  }

  return (
    <AdminForm label="Issue a card" submit="Issue the card" onSubmit={() => void issue()}>
      <div className="form-row">
        <MoneyInput id={`${id}-amount`} label="Amount ($)" hint="$1 to $500" required {...field('amount')} />
        <TextInput id={`${id}-day`} label="Day it goes" hint="Your day, within a year" type="date" required min={today} max={latest} {...field('sendOn')} />
      </div>
      <div className="form-row">
        <TextInput id={`${id}-name`} label="Recipient’s name" required maxLength={100} autoComplete="off" {...field('name')} />
        <TextInput id={`${id}-email`} label="Recipient’s e-mail" type="email" required autoComplete="off" {...field('email')} />
      </div>
      <TextArea id={`${id}-message`} label="Message (optional)" maxLength={500} rows={3} {...field('message')} />
      <SelectInput id={`${id}-design`} label="Design" choices={DESIGN_CHOICES} {...field('design')} />
    </AdminForm>
  );
}

/** Her change of a balance: dollars added or taken off (the phone's decimal keys have no minus), with a reason for the history. */
function AdjustCard(props: { card: AdminGiftCardView; onDone: () => void }) {
  const id = useId();
  const [way, setWay] = useState<'take' | 'add'>('take');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');

  async function adjust() {
    const cents = typedCents(amount);
    if (cents <= 0) {
      setError('Enter the dollars to add or take off, like 5 or 12.50.');
      return;
    }
    setError('');
    const url = `/api/admin/gift-cards/${encodeURIComponent(props.card._id)}/adjust`;
    const done = await send<{ balanceCents: number }>('POST', url, { cents: way === 'take' ? -cents : cents, reason }, 'Could not adjust the card');
    if (!done) return;
    setStatus(`Adjusted: ${usdFromCents(done.balanceCents)} left on the card.`);
    setAmount('');
    setReason('');
    props.onDone();
  }

  return (
    <AdminForm label={`Adjust the ${cardName(props.card)}`} submit="Adjust" onSubmit={() => void adjust()} status={status}>
      <div className="form-row">
        <SelectInput
          id={`${id}-way`}
          label="Add or take off"
          choices={[
            ['take', 'Take off'],
            ['add', 'Add'],
          ]}
          value={way}
          onChange={(e) => setWay(e.target.value as 'take' | 'add')}
        />
        <MoneyInput id={`${id}-amount`} label="Dollars" required error={error} value={amount} onChange={(e) => setAmount(e.target.value)} />
      </div>
      <TextInput id={`${id}-reason`} label="Reason" required maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
    </AdminForm>
  );
}

/** A card's history, oldest first, each line on her clocks; an order or a session links to its row. */
function History(props: { lines: AdminGiftCardDetailView['history'] }) {
  return (
    <ul className="plain-list gift-history" aria-label="History">
      {props.lines.map((h, i) => (
        <li key={i} data-history-line>
          {formatWhen(h.at)}: {signedUsd(h.change)} {REASON_WORDS[h.reason] ?? h.reason}
          {h.note ? ` (${h.note})` : ''}
          {h.orderId && (
            <>
              {' '}
              <a href={adminLinks.item('/admin/orders', h.orderId)}>order No. {orderReference(h.orderId)}</a>
            </>
          )}
          {h.slotId && (
            <>
              {' '}
              <a href={adminLinks.item('/admin/bookings', h.slotId)}>the session</a>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** A card opened: its details and history (GET /:id), and her adjustment unless it was voided. */
function CardDialog(props: { card: AdminGiftCardView; onClose: () => void; onChanged: () => void }) {
  const url = `/api/admin/gift-cards/${encodeURIComponent(props.card._id)}`;
  const [detail, setDetail] = useState<AdminGiftCardDetailView | null>(null);
  const [error, setError] = useState('');
  const load = useCallback(() => {
    request<AdminGiftCardDetailView & { message?: string }>('GET', url, { session: 'admin' })
      .then((r) => (r.ok ? setDetail(r.data) : setError(r.data.message ?? 'Could not load the card.')))
      .catch(() => setError('The server could not be reached. Please try again.'));
  }, [url]);
  useEffect(load, [load]);

  const card = detail ?? props.card;
  const amounts = cardAmounts(card, usdFromCents);
  return (
    <ModalDialog title={`Gift card ending ${card.last4}`} onClose={props.onClose}>
      <p data-card-balance>
        <strong>{amounts.left}</strong> left of {amounts.of}
        {amounts.adjusted}
      </p>
      <p>
        For {card.recipientName} ({card.recipientEmail}), from {card.buyerName}
        {card.createdBy === 'admin' ? ' (issued by you)' : ''}. {cardState(card)}.
      </p>
      {card.message && <p className="pre-wrap muted">“{card.message}”</p>}
      <h3>History</h3>
      {error && <p className="admin-error">{error}</p>}
      {detail ? <History lines={detail.history} /> : !error && <p role="status">Loading…</p>}
      {!card.voidedAt && (
        <>
          <h3>Adjust the balance</h3>
          <AdjustCard
            card={card}
            onDone={() => {
              load();
              props.onChanged();
            }}
          />
        </>
      )}
    </ModalDialog>
  );
}

/** A card in her list: what it is worth and where it is, and what she may do with it now. */
function CardRow(props: { card: AdminGiftCardView; onOpen: () => void; onResend: () => void; onVoid: () => void }) {
  const c = props.card;
  const live = !c.voidedAt;
  const amounts = cardAmounts(c, usdFromCents);
  return (
    <li className="item" data-gift-card={c.last4}>
      <div>
        <h3>
          ···· {c.last4} <span className="muted">for {c.recipientName}</span>
        </h3>
        <p data-card-amounts>
          {amounts.left} left of {amounts.of}
          {amounts.adjusted}
        </p>
        <p className="muted" data-card-state>
          {cardState(c)}
        </p>
      </div>
      <div className="row-actions">
        <button type="button" className="button button-quiet button-small" onClick={props.onOpen}>
          History<span className="sr-only"> of the {cardName(c)}</span>
        </button>
        {/* A delivered card is the recipient's: its mail may go again, and it is adjusted, never voided. */}
        {live && c.deliveredAt && (
          <button type="button" className="button button-quiet button-small" onClick={props.onResend}>
            Resend<span className="sr-only"> the {cardName(c)}</span>
          </button>
        )}
        {live && !c.deliveredAt && (
          <button type="button" className="button danger button-small" onClick={props.onVoid}>
            Void<span className="sr-only"> the {cardName(c)}</span>
          </button>
        )}
      </div>
    </li>
  );
}

function GiftCardsPanel() {
  const id = useId();
  const { items, reload } = useAdminList<AdminGiftCardView>('/api/admin/gift-cards', 'Failed to load the gift cards.');
  const [openId, setOpenId] = useState<string | null>(null);
  const [issued, setIssued] = useState<(GiftCardIssuedView & { to: string; sendOn: string }) | null>(null);
  const open = items?.find((c) => c._id === openId);

  async function resend(c: AdminGiftCardView) {
    const done = await send<{ message: string }>('POST', `/api/admin/gift-cards/${encodeURIComponent(c._id)}/resend`, {}, 'Could not resend the card');
    if (done) await showAlert({ icon: 'success', title: 'Card sent again', text: done.message });
  }

  async function voidCard(c: AdminGiftCardView) {
    const sure = await confirmDialog({
      title: `Void the ${cardName(c)}?`,
      text: `Its mail to ${c.recipientName} will not go and its ${usdFromCents(c.balanceCents)} is taken back. A card bought through PayPal is refunded to its buyer.`,
      confirmText: 'Void it',
      cancelText: 'Keep it',
    });
    if (!sure) return;
    const done = await send<GiftCardVoidedView>('POST', `/api/admin/gift-cards/${encodeURIComponent(c._id)}/void`, {}, 'Could not void the card');
    if (!done) return;
    void reload();
    await showAlert({ icon: done.paypalRefund === 'owed' ? 'warning' : 'success', title: 'Card voided', text: done.message });
  }

  return (
    <>
      <section className="admin-panel" aria-labelledby={`${id}-totals`}>
        <h2 id={`${id}-totals`}>Totals</h2>
        {items ? <Totals cards={items} /> : <p role="status">Loading…</p>}
        <p className="muted">
          What is still owed on cards is a liability, not income, until it is spent: the finances and the tax year count a card’s money as income when it buys
          something.
        </p>
      </section>
      <section className="admin-panel" aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>Cards</h2>
        <Listing items={items} empty="No gift cards yet.">
          {(cards) => (
            <ul className="item-list">
              {cards.map((c) => (
                <CardRow key={c._id} card={c} onOpen={() => setOpenId(c._id)} onResend={() => void resend(c)} onVoid={() => void voidCard(c)} />
              ))}
            </ul>
          )}
        </Listing>
      </section>
      <section className="admin-panel" aria-labelledby={`${id}-issue`}>
        <h2 id={`${id}-issue`}>Issue a card</h2>
        <p className="muted">A card from you (a raffle prize, a make-good): free to its recipient, mailed on its day. Its code is shown once.</p>
        <IssueCard
          onIssued={(card) => {
            setIssued(card);
            void reload();
          }}
        />
      </section>
      {open && <CardDialog card={open} onClose={() => setOpenId(null)} onChanged={() => void reload()} />}
      {issued && <CodeDialog issued={issued} onClose={() => setIssued(null)} />}
    </>
  );
}

export default adminScreen('/admin/gift-cards', 'Gift cards', GiftCardsPanel);
