import { PayPalButtons, PayPalScriptProvider, usePayPalScriptReducer, type ReactPayPalScriptOptions } from '@paypal/react-paypal-js';
import { useEffect } from 'react';
import type { PayPalConfigView } from '../../contract/config.ts';

/**
 * What the buttons report. This module only translates the SDK's events; the dialogs and the
 * rules around them live in PayPalPayment.tsx, which is not lazy-loaded.
 */
export interface CheckoutHandlers {
  createOrder: () => Promise<string>;
  onApprove: (orderID: string) => Promise<void>;
  /** The SDK's onError: the payment did not go through (declined, createOrder rejected, …). */
  onError: (err: unknown) => void;
  /** The SDK script did not load. */
  onLoadFailed: () => void;
  /** The buttons could not be created or rendered into their container. */
  onRenderFailed: (err: unknown) => void;
}

/**
 * react-paypal-js (10.x) wraps PayPalButtons in its own error boundary: a render failure
 * (window.paypal.Buttons missing or throwing, or Buttons().render() rejecting while the container
 * still has children) is thrown into React by a setState updater, caught there, and handed to the
 * `onError` prop as a plain `{message, name, stack, componentStack}`. The SDK's own onError gets
 * an Error without `componentStack`, so that key tells the two apart.
 */
const isRenderFailure = (err: unknown) => typeof err === 'object' && err !== null && 'componentStack' in err;

function Buttons(props: CheckoutHandlers) {
  const [{ isRejected, isPending }] = usePayPalScriptReducer();
  const { onLoadFailed } = props;
  useEffect(() => {
    if (isRejected) onLoadFailed();
  }, [isRejected, onLoadFailed]);
  if (isPending) return <p role="status">Loading payment options…</p>;
  if (isRejected) return null;
  return (
    <PayPalButtons
      style={{ layout: 'vertical' }}
      createOrder={() => props.createOrder()}
      onApprove={(data) => props.onApprove(data.orderID)}
      onError={(err) => (isRenderFailure(err) ? props.onRenderFailed(err) : props.onError(err))}
    />
  );
}

/**
 * The SDK options this page sets, by the SDK's own names. ReactPayPalScriptOptions also takes
 * any other key (an index signature), so a misspelt option would pass unnoticed: picking the
 * names makes the compiler refuse one.
 */
type ScriptOptions = Pick<ReactPayPalScriptOptions, 'clientId' | 'currency' | 'intent' | 'sdkBaseUrl'>;

/** The payment provider's buttons (loaded only after Continue; currency USD). */
export default function PayPalCheckout(props: CheckoutHandlers & { config: PayPalConfigView }) {
  const { config, ...handlers } = props;
  const options: ScriptOptions = {
    clientId: config.clientId,
    currency: config.currency || 'USD',
    intent: 'capture',
    ...(config.sdkBaseUrl ? { sdkBaseUrl: config.sdkBaseUrl } : {}),
  };
  return (
    <PayPalScriptProvider options={options}>
      <Buttons {...handlers} />
    </PayPalScriptProvider>
  );
}
