import { useEffect, useState } from 'react';
import { request } from '../lib/http';
import { usdFromCents } from '../lib/money';
import { GIFT_CARD_LINK_INVALID, type GiftCardPrintView } from '../../contract/gift-cards.ts';

/**
 * /gift-cards/print?card=…&token=… (issue 33): the card from the recipient's mail, to print and
 * give by hand: the brand, the amount, from whom, the message and the code, and a Print button
 * that the paper leaves out. The code comes from the server on the link the mail carried.
 */
export default function GiftCardPrint() {
  const [card, setCard] = useState<GiftCardPrintView | null>(null);
  const [failure, setFailure] = useState('');

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const id = params.get('card') ?? '';
    const token = params.get('token') ?? '';
    if (!id || !token) return setFailure(GIFT_CARD_LINK_INVALID);
    request<GiftCardPrintView>('GET', `/api/gift-cards/${encodeURIComponent(id)}/printable?token=${encodeURIComponent(token)}`)
      .then((res) => (res.ok ? setCard(res.data) : setFailure(res.data.message || GIFT_CARD_LINK_INVALID)))
      .catch(() => setFailure('We couldn’t load this gift card. Please try again.'));
  }, []);

  if (failure)
    return (
      <p className="field-error" role="alert">
        {failure}
      </p>
    );
  if (!card) return <p aria-busy="true">Loading your gift card…</p>;
  return (
    <>
      <article className="gift-card-print" data-design={card.design} aria-label="Gift card">
        <h1>{card.brand} gift card</h1>
        <p>For {card.recipientName}</p>
        <p className="gift-card-amount">{usdFromCents(card.amountCents)}</p>
        <p>From {card.from}</p>
        {card.message && <blockquote>“{card.message}”</blockquote>}
        <p>
          Code: <span className="gift-card-code">{card.code}</span>
        </p>
        <p className="muted">Spend it on chocolates or yoga at {location.host}/gift-cards. It never expires.</p>
      </article>
      <p className="no-print">
        <button type="button" className="button" onClick={() => window.print()}>
          Print
        </button>
      </p>
    </>
  );
}
