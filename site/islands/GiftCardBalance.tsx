import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { giftCardCode, type GiftCardBalanceView } from '../../contract/gift-cards.ts';
import { request } from '../lib/http';
import { usdFromCents } from '../lib/money';
import { SubmitButton, TextInput } from './Field';
import { useForm } from './useForm';

const balanceQuery = z.object({ code: giftCardCode });

/**
 * "Check a card's balance" on /gift-cards: GET /api/gift-cards/balance?code=…, what is left on
 * the card or the server's one message for every wrong code (and its own when tried too often).
 */
export default function GiftCardBalance() {
  const { values, set, errors, formRef, sending, submitting, validate } = useForm({ code: '' });
  const [answer, setAnswer] = useState('');

  async function submit(e: FormEvent) {
    e.preventDefault();
    await submitting(async () => {
      const query = validate(balanceQuery, values);
      if (!query) return setAnswer('');
      try {
        const res = await request<GiftCardBalanceView>('GET', `/api/gift-cards/balance?code=${encodeURIComponent(query.code)}`);
        setAnswer(
          res.ok
            ? `${usdFromCents(res.data.balanceCents)} left on this card`
            : res.data.message || 'The balance could not be looked up. Please try again later.',
        );
      } catch {
        setAnswer('The balance could not be looked up. Please try again later.');
      }
    });
  }

  return (
    <form ref={formRef} className="form" method="post" onSubmit={submit} noValidate aria-label="Check a card’s balance">
      <TextInput
        id="gift-balance-code"
        label="Gift card code"
        name="code"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        required
        error={errors.code}
        value={values.code}
        onChange={set('code')}
      />
      {/* Pressed before React has loaded, it is held and pressed again once it has (site/directives/interaction.ts). */}
      <SubmitButton busy={sending} busyLabel="Checking…">
        Check balance
      </SubmitButton>
      <p role="status" data-gift-card-balance>
        {answer}
      </p>
    </form>
  );
}
