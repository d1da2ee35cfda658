/**
 * A paid event's part of the sign-up form (issue 34): what a place costs (a fixed price, or her
 * sliding scale with pay-what-you-can from the lowest to the highest), her refund policy said
 * before paying, and the shared PayPal step. The server holds the place and makes the order for
 * the amount chosen; it decides whether that amount is within the range. The hold asks the sign-up
 * form's human check (issue 47), as the sign-up itself does.
 */
import { useEffect, useRef } from 'react';
import type { EventView } from '../../contract/events.ts';
import type { PayPalConfigView } from '../../contract/config.ts';
import type { BookingOrderView } from '../../contract/booking.ts';
import { priceRange, refundPolicyLine } from '../../contract/event-price-rules.ts';
import { hoursInWords } from '../../contract/settings.ts';
import { classDateTime } from '../lib/calendar';
import { request } from '../lib/http';
import { getCaptchaToken } from '../lib/captcha';
import { typedCents, usdFromCents } from '../lib/money';
import { MoneyInput } from './Field';
import { PayPalPayment } from './PayPalPayment';

/** The cents typed on the scale, or the fixed price. */
export const chosenCents = (event: EventView, typed: string) => (event.priceCents !== null ? event.priceCents : typedCents(typed));

export function PriceChoice(props: { event: EventView; zone: string | undefined; amount: string; onAmount: (v: string) => void; error?: string | undefined }) {
  const { event, zone } = props;
  const range = priceRange(event)!;
  const noticeHours = event.refundUntil ? Math.round((new Date(event.startsAt).getTime() - new Date(event.refundUntil).getTime()) / 3_600_000) : 0;
  return (
    <fieldset className="paid-place" data-paid-place>
      <legend>Your place</legend>
      {event.priceCents !== null ? (
        <>
          <p>
            A place costs <strong>{usdFromCents(event.priceCents)}</strong>.
          </p>
          {props.error && (
            <p className="field-error" id="su-amount-error" role="alert">
              {props.error}
            </p>
          )}
        </>
      ) : (
        <MoneyInput
          id="su-amount"
          label="Pay what you can"
          hint={`From ${usdFromCents(range.min)} to ${usdFromCents(range.max)}; ${usdFromCents(range.suggested)} is suggested.`}
          value={props.amount}
          onChange={(e) => props.onAmount(e.target.value)}
          error={props.error}
        />
      )}
      {event.refundUntil && <p className="field-hint">{refundPolicyLine(classDateTime(event.refundUntil, zone), hoursInWords(noticeHours))}</p>}
    </fieldset>
  );
}

/** The PayPal step for the place: the server holds it and makes the order; `onApproved` signs up with it. */
export function PayForPlace(props: {
  event: EventView;
  config: PayPalConfigView;
  amountCents: number;
  buyer: { name: string; email: string; phone: string };
  onApproved: (orderID: string) => Promise<void>;
  /** `message`: why the server would not hold the place (held by others until a time, too many holds), to show by the price. */
  onFailed: (message?: string) => void;
}) {
  const stepRef = useRef<HTMLParagraphElement>(null);
  // The step takes the button's place: focus (and the phone's screen) follows.
  useEffect(() => stepRef.current?.focus(), []);
  return (
    <div className="paid-place-payment">
      <p ref={stepRef} tabIndex={-1}>
        Paying {usdFromCents(props.amountCents)} for your place in {props.event.title}. Your place is held while you pay.
      </p>
      <PayPalPayment
        config={props.config}
        buttonsFailedTitle="Payment Button Not Found"
        createOrder={async () => {
          // The place is held by a person (issue 47): the sign-up form's human check comes with the ask.
          const recaptchaToken = await getCaptchaToken('signup_form_submit');
          return request<BookingOrderView>('POST', `/api/events/${encodeURIComponent(props.event._id)}/paypal-order`, {
            body: { amountCents: props.amountCents, ...props.buyer, recaptchaToken },
          });
        }}
        onApprove={props.onApproved}
        onFailed={(_failure, message) => props.onFailed(message)}
      />
    </div>
  );
}
