import { useId, useState } from 'react';
import { request } from '../lib/http';
import { usdFromCents } from '../lib/money';
import { GIFT_CARD_EMPTY } from '../../contract/pricing.ts';
import type { GiftCardBalanceView } from '../../contract/gift-cards.ts';

/** A card the buyer typed and the server found: its code as typed, and what it held then. */
export interface AppliedGiftCard {
  code: string;
  balanceCents: number;
}

/** What a card pays of a total: all it holds, up to the total (the server prices it the same way). */
export const cardPart = (card: AppliedGiftCard | null, totalCents: number) => (card ? Math.min(card.balanceCents, Math.max(0, totalCents)) : 0);

/**
 * Asks the server what a typed code holds (`GET /api/gift-cards/balance`): the card, or the
 * server's one message for every wrong code (or the limit's). A card with nothing left is said
 * so here rather than applied for $0.
 */
export async function lookUpGiftCard(typed: string): Promise<{ card: AppliedGiftCard } | { error: string }> {
  const code = typed.trim();
  try {
    const res = await request<GiftCardBalanceView>('GET', `/api/gift-cards/balance?code=${encodeURIComponent(code)}`);
    if (!res.ok) return { error: res.data.message || 'We couldn’t check this gift card. Please try again.' };
    if (res.data.balanceCents <= 0) return { error: GIFT_CARD_EMPTY };
    return { card: { code, balanceCents: res.data.balanceCents } };
  } catch {
    return { error: 'We couldn’t check this gift card. Please try again.' };
  }
}

/**
 * The "Gift card code" field the cart and the booking page share (issue 33): type, Apply, and
 * the card's balance shown with a way to take it off again. The page decides what the card pays;
 * the server decides again when the order or booking is made.
 */
export function GiftCardCode(props: { applied: AppliedGiftCard | null; onChange: (card: AppliedGiftCard | null) => void }) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function apply() {
    if (!typed.trim()) return;
    setBusy(true);
    const found = await lookUpGiftCard(typed);
    setBusy(false);
    if ('error' in found) {
      setError(found.error);
      props.onChange(null);
      return;
    }
    setError('');
    props.onChange(found.card);
  }

  if (props.applied)
    return (
      <div className="field" data-gift-card>
        <span role="status">Gift card applied: {usdFromCents(props.applied.balanceCents)} on it.</span>
        <button
          type="button"
          className="button button-quiet button-small"
          onClick={() => {
            props.onChange(null);
            setTyped('');
          }}
        >
          Remove gift card
        </button>
      </div>
    );
  return (
    <div className="field" data-gift-card>
      <label htmlFor={id}>Gift card code</label>
      <div className="newsletter-form">
        <input
          id={id}
          value={typed}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          onChange={(e) => setTyped(e.target.value.toUpperCase())}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void apply();
            }
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <button type="button" className="button button-small" disabled={busy} onClick={() => void apply()}>
          Apply<span className="sr-only"> gift card</span>
        </button>
      </div>
      {error && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
