import { useEffect, useState, type FormEvent } from 'react';
import { request } from '../lib/http';
import { showAlert } from '../lib/alert';
import { usdFromCents } from '../lib/money';
import { TextInput } from './Field';
import { useToday } from './useToday';
import type { PageClock } from '../../contract/content.ts';
import { giftCardDeliveryChange, type GiftCardDeliveryView } from '../../contract/gift-cards.ts';
import { linkParams, useCardLink } from './useCardLink';

type Fields = { recipientName: string; recipientEmail: string; sendOn: string };

/** The same day a year later: the last day the server accepts. */
const aYearFrom = (day: string) => `${Number(day.slice(0, 4)) + 1}${day.slice(4)}`;

/**
 * /gift-cards/change?card=…&token=… (issue 33): the buyer's link from the receipt. Shows the card
 * (last four, amount, to whom and when) and, while it waits for its day, lets the buyer change the
 * recipient's name and e-mail or the day (her days: today sends it now). The server decides
 * whether it was sent meanwhile.
 */
export default function GiftCardChange({ clock }: { clock: PageClock }) {
  const today = useToday(clock);
  const { data: card, setData: setCard, waiting } = useCardLink<GiftCardDeliveryView>('delivery');
  const [fields, setFields] = useState<Fields>({ recipientName: '', recipientEmail: '', sendOn: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const [busy, setBusy] = useState(false);
  const { id, token } = linkParams();
  // The form starts from the card as it is, once it is here.
  useEffect(() => {
    if (card) setFields({ recipientName: card.recipientName, recipientEmail: card.recipientEmail, sendOn: card.sendOn });
    // Only the card's arrival fills the form: a save keeps what was typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [card === null]);

  async function save(e: FormEvent) {
    e.preventDefault();
    const parsed = giftCardDeliveryChange.safeParse({ token, ...fields });
    if (!parsed.success) {
      const next: Partial<Record<keyof Fields, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof Fields] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const res = await request<{ message: string; delivered: boolean }>('PUT', `/api/gift-cards/${encodeURIComponent(id)}/delivery`, { body: parsed.data });
      if (!res.ok) {
        await showAlert({ icon: 'error', title: 'Not Changed', text: res.data.message });
        if (res.status === 409 && card) setCard({ ...card, delivered: true });
        return;
      }
      if (card) setCard({ ...card, ...fields, delivered: res.data.delivered });
      await showAlert({ icon: 'success', title: 'Gift Card Changed', text: res.data.message });
    } finally {
      setBusy(false);
    }
  }

  if (!card) return waiting;
  const summary = `Your ${usdFromCents(card.amountCents)} gift card ending ${card.last4}`;
  if (card.delivered)
    return (
      <p role="status" data-card-sent>
        {summary} was sent to {card.recipientName} at {card.recipientEmail}: it can no longer change.
      </p>
    );
  const field = (key: keyof Fields, label: string, extra: Partial<Parameters<typeof TextInput>[0]> = {}) => (
    <TextInput
      id={`change-${key}`}
      label={label}
      value={fields[key]}
      error={errors[key]}
      onChange={(e) => setFields({ ...fields, [key]: e.target.value })}
      {...extra}
    />
  );
  return (
    <form className="form" onSubmit={(e) => void save(e)} noValidate aria-label="Change the gift card’s delivery">
      <p data-card-waiting>
        {summary} goes to {card.recipientName} on {card.sendOn}.
      </p>
      {field('recipientName', 'Recipient’s name', { autoComplete: 'off' })}
      {field('recipientEmail', 'Recipient’s email', { type: 'email', autoComplete: 'off' })}
      {field('sendOn', 'Day it is sent', { type: 'date', min: today, max: aYearFrom(today), hint: 'Today sends it now.' })}
      <button type="submit" className="button" disabled={busy}>
        Save changes
      </button>
    </form>
  );
}
