import { useState, type FormEvent } from 'react';
import { TextInput } from './Field';
import { email as emailField } from '../../contract/common.ts';
import { shipToAddress, type ShipToAddress } from '../../contract/orders.ts';
import { US_STATES } from '../../contract/tax.ts';

/** What PayPal would have told us of the buyer, typed here instead: who pays, and where it goes. */
export interface CardOnlyBuyer {
  payerName: string;
  payerEmail: string;
  shipTo?: ShipToAddress;
}

const BLANK = { payerName: '', payerEmail: '', name: '', line1: '', line2: '', city: '', zip: '' };
type Typed = typeof BLANK;

/** The first message per field of what the contract refuses, or none. */
function errorsOf(typed: Typed, state: string, zip: string, pickup: boolean): Partial<Record<keyof Typed, string>> {
  const errors: Partial<Record<keyof Typed, string>> = {};
  if (!typed.payerName.trim()) errors.payerName = 'Enter your name';
  const mail = emailField.safeParse(typed.payerEmail);
  if (!mail.success) errors.payerEmail = mail.error.issues[0]?.message ?? 'Enter a valid email';
  if (!pickup) {
    const address = shipToAddress.safeParse({ ...typed, state, zip });
    for (const issue of address.success ? [] : address.error.issues) {
      const key = issue.path[0] as keyof Typed;
      errors[key] ??= issue.message;
    }
  }
  return errors;
}

/**
 * The cart's last step when a gift card pays the whole order (issue 33): no PayPal, so the page
 * asks what PayPal would have told — the buyer's name and e-mail and, for a shipped order, the
 * address (its state is the one the tax was figured for, chosen above; its ZIP too where asked).
 * The button waits until every field is filled; the server checks it all again.
 */
export function CardOnlyOrder(props: {
  pickup: boolean;
  state: string;
  /** The ZIP typed above for the tax, or '' when the cart did not ask for one. */
  taxZip: string;
  disabled: boolean;
  onPlace: (buyer: CardOnlyBuyer) => Promise<void>;
}) {
  const [typed, setTyped] = useState(BLANK);
  const [shown, setShown] = useState<Partial<Record<keyof Typed, string>>>({});
  const [busy, setBusy] = useState(false);
  const zip = props.taxZip || typed.zip;
  const errors = errorsOf(typed, props.state, zip, props.pickup);
  const filled = Object.keys(errors).length === 0;

  const field = (key: keyof Typed, label: string, extra: Partial<Parameters<typeof TextInput>[0]> = {}) => (
    <TextInput
      id={`card-order-${key}`}
      label={label}
      value={typed[key]}
      error={shown[key]}
      onChange={(e) => setTyped({ ...typed, [key]: e.target.value })}
      onBlur={() => setShown({ ...shown, [key]: errors[key] })}
      {...extra}
    />
  );

  async function submit(e: FormEvent) {
    e.preventDefault();
    setShown(errors);
    if (!filled) return;
    setBusy(true);
    try {
      const { payerName, payerEmail, name, line1, line2, city } = typed;
      await props.onPlace({
        payerName: payerName.trim(),
        payerEmail: payerEmail.trim(),
        ...(props.pickup ? {} : { shipTo: { name, line1, ...(line2.trim() ? { line2 } : {}), city, state: props.state, zip } }),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form" aria-label="Pay with your gift card" onSubmit={(e) => void submit(e)} noValidate data-card-only>
      <p>Your gift card pays for the whole order: nothing more to pay.</p>
      {field('payerName', 'Your name', { autoComplete: 'name' })}
      {field('payerEmail', 'Your email', { type: 'email', autoComplete: 'email' })}
      {!props.pickup && (
        <fieldset>
          <legend>Ship to ({US_STATES[props.state] ?? props.state})</legend>
          {field('name', 'Recipient’s name', { autoComplete: 'shipping name' })}
          {field('line1', 'Street address', { autoComplete: 'shipping address-line1' })}
          {field('line2', 'Apartment, suite (optional)', { autoComplete: 'shipping address-line2' })}
          {field('city', 'City', { autoComplete: 'shipping address-level2' })}
          {!props.taxZip && field('zip', 'ZIP code', { inputMode: 'numeric', autoComplete: 'shipping postal-code', maxLength: 10 })}
        </fieldset>
      )}
      <button type="submit" className="button" disabled={props.disabled || busy || !filled}>
        Place order
      </button>
    </form>
  );
}
