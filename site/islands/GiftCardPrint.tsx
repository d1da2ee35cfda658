import { usdFromCents } from '../lib/money';
import type { GiftCardPrintView } from '../../contract/gift-cards.ts';
import { useCardLink } from './useCardLink';

/**
 * /gift-cards/print?card=…&token=… (issue 33): the card from the recipient's mail, to print and
 * give by hand: the brand, the amount, from whom, the message and the code, and a Print button
 * that the paper leaves out. The code comes from the server on the link the mail carried.
 */
export default function GiftCardPrint() {
  const { data: card, waiting } = useCardLink<GiftCardPrintView>('printable');
  if (!card) return waiting;
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
