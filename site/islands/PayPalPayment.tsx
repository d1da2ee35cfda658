/**
 * The payment step that the paid booking (client/BookSession.tsx) and the cart (CartPage.tsx)
 * share: SPEC.md section 8's payment dialogs, word for word, the /api/config/paypal fetch, and the
 * buttons with every way they can fail. Small and not lazy: the islands need the dialogs before
 * the PayPal chunk (PayPalCheckout.tsx, with react-paypal-js) has loaded, and the boundary below
 * must sit outside that chunk to catch it not loading.
 */
import { Component, lazy, Suspense, useRef, type ErrorInfo, type ReactNode } from 'react';
import { showAlert } from '../lib/alert';
import { request, type JsonResult } from '../lib/http';
import type { PayPalConfigView } from '../../contract/config.ts';

const PayPalCheckout = lazy(() => import('./PayPalCheckout'));

/**
 * SPEC.md section 8 names the dialog for buttons that could not be shown per page: 'Payment
 * Button Not Found' on the paid booking, 'Payment Error' on the cart ("button container
 * missing"). It gives the text for the booking only; the cart uses the same words, which say what
 * happened and what to do.
 */
export type ButtonsFailedTitle = 'Payment Button Not Found' | 'Payment Error';
const BUTTONS_FAILED_TEXT = 'We couldn’t load the payment button. Please refresh the page and try again.';

/** The dialogs both pages show with the same title and text (SPEC.md section 8). */
export const paymentDialogs = {
  serviceUnavailable: () =>
    showAlert({ icon: 'error', title: 'Payment Service Unavailable', text: 'We couldn’t load the payment provider. Please try again later.' }),
  unsuccessful: () =>
    showAlert({ icon: 'error', title: 'Payment Unsuccessful', text: 'Your payment could not be processed. Please check your payment details and try again.' }),
  buttonError: () =>
    showAlert({ icon: 'error', title: 'Payment Button Error', text: 'We couldn’t display the payment buttons. Please refresh the page and try again.' }),
  buttonsFailed: (title: ButtonsFailedTitle) => showAlert({ icon: 'error', title, text: BUTTONS_FAILED_TEXT }),
  /**
   * 'Transaction completed by {name}' with the payer's first name (SPEC.md section 7). Without a
   * name the sentence would end in "by": the title alone then, rather than words the spec lacks.
   */
  /** `details`: lines that go with it (the chocolates bought, with their allergens and net weight: issue 48). */
  successful: (payerFirstName: string, details: readonly string[] = []) =>
    showAlert({
      icon: 'success',
      title: 'Payment Successful',
      ...(payerFirstName.trim() ? { text: `Transaction completed by ${payerFirstName.trim()}` } : {}),
      details,
    }),
};

/** The first name in PayPal's "given-name surname" (the cart's order.payerName). */
export const firstNameOf = (fullName: string | undefined) => (fullName ?? '').trim().split(/\s+/)[0] ?? '';

/**
 * GET /api/config/paypal (SPEC.md section 7); null, with the 'Payment Service Unavailable'
 * dialog opened, when there is no client id or the call fails.
 */
export async function loadPayPalConfig(): Promise<PayPalConfigView | null> {
  try {
    const res = await request<PayPalConfigView>('GET', '/api/config/paypal');
    if (res.ok && res.data.clientId) return res.data;
  } catch {
    // network failure: same dialog
  }
  void paymentDialogs.serviceUnavailable();
  return null;
}

/**
 * Catches what fails while rendering the payment step and is thrown into React: the
 * PayPalCheckout chunk not loading, or a PayPalButtons that rethrows a render failure. The
 * installed react-paypal-js catches its own render failures and reports them to onError, which
 * PayPalCheckout routes to the same handler (onRenderFailed). Renders nothing once failed; the
 * island unmounts it (back to its Continue button), so the next try starts afresh.
 */
export class PayPalButtonsBoundary extends Component<{ onFailed: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('[paypal] the payment buttons failed to render:', error, info.componentStack);
    this.props.onFailed();
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * Why the payment step stopped, told to the island after its dialog has opened, so it can set
 * its failure flag, refresh what the server refused over, and offer Continue again:
 *  - 'sdk': the provider's script did not load ('Payment Service Unavailable');
 *  - 'buttons': the buttons did not render (the page's ButtonsFailedTitle);
 *  - 'order': our server did not create the PayPal order ('Payment Button Error', or 'Payment
 *    Service Unavailable' when the server could not reach PayPal);
 *  - 'payment': the provider reported a failed payment ('Payment Unsuccessful').
 */
export type PaymentFailure = 'sdk' | 'buttons' | 'order' | 'payment';

export interface PayPalPaymentProps {
  config: PayPalConfigView;
  buttonsFailedTitle: ButtonsFailedTitle;
  /** Asks our server for the PayPal order of this payment ({orderID}, or a refusal). */
  createOrder: () => Promise<JsonResult<{ orderID: string | null }>>;
  onApprove: (orderID: string) => Promise<void>;
  /** `message`: the server's own words when it refused the order (a 4xx), for an island that shows them beside its form. */
  onFailed: (failure: PaymentFailure, message?: string) => void;
}

export function PayPalPayment(props: PayPalPaymentProps) {
  const { onFailed, buttonsFailedTitle } = props;
  // Set when creating the order failed and its dialog is open: the SDK then reports the same
  // failure to onError, which must not add 'Payment Unsuccessful' on top.
  const orderFailed = useRef(false);

  /**
   * A refused order shows SPEC.md's words, not the server's message: the spec names no message
   * for a slot taken meanwhile or tins sold out (the server's other refusals), so the dialog is
   * 'Payment Button Error' with its text, and the island makes the reason visible instead by
   * reloading what was refused (the slot list; the stock, shown per line in the cart). The one
   * refusal the spec has words for is a payment provider that cannot be reached (502): its
   * 'Payment Service Unavailable' dialog, which is also the booking server's own message.
   */
  async function createOrder(): Promise<string> {
    orderFailed.current = false;
    let res: JsonResult<{ orderID: string | null }> | null = null;
    try {
      res = await props.createOrder();
    } catch {
      // network failure: res stays null
    }
    if (res?.ok && res.data.orderID) return res.data.orderID;
    orderFailed.current = true;
    void (res?.status === 502 ? paymentDialogs.serviceUnavailable() : paymentDialogs.buttonError());
    onFailed('order', res && res.status >= 400 && res.status < 500 ? res.data.message : undefined);
    throw new Error(res?.data.message || 'The payment order was not created');
  }

  const buttonsFailed = () => {
    void paymentDialogs.buttonsFailed(buttonsFailedTitle);
    onFailed('buttons');
  };

  return (
    <PayPalButtonsBoundary onFailed={buttonsFailed}>
      <Suspense fallback={<p role="status">Loading payment options…</p>}>
        <PayPalCheckout
          config={props.config}
          createOrder={createOrder}
          onApprove={props.onApprove}
          onError={() => {
            if (orderFailed.current) {
              orderFailed.current = false;
              return;
            }
            void paymentDialogs.unsuccessful();
            onFailed('payment');
          }}
          onLoadFailed={() => {
            void paymentDialogs.serviceUnavailable();
            onFailed('sdk');
          }}
          onRenderFailed={buttonsFailed}
        />
      </Suspense>
    </PayPalButtonsBoundary>
  );
}
