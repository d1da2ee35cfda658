import { PayPalButtons, PayPalScriptProvider, usePayPalScriptReducer } from '@paypal/react-paypal-js';
import { useEffect } from 'react';

export interface PayPalConfig {
  clientId: string;
  currency: string;
  /** Set while the local PayPal emulator stands in (development and tests). */
  sdkBaseUrl?: string;
}

export interface CheckoutHandlers {
  createOrder: () => Promise<string>;
  onApprove: (orderID: string) => Promise<void>;
  onError: (err: unknown) => void;
  onLoadFailed: () => void;
}

function Buttons(props: CheckoutHandlers) {
  const [{ isRejected, isPending }] = usePayPalScriptReducer();
  useEffect(() => {
    if (isRejected) props.onLoadFailed();
  }, [isRejected]);
  if (isPending) return <p role="status">Loading payment options…</p>;
  if (isRejected) return null;
  return (
    <PayPalButtons
      style={{ layout: 'vertical' }}
      createOrder={() => props.createOrder()}
      onApprove={(data) => props.onApprove(data.orderID)}
      onError={(err) => props.onError(err)}
    />
  );
}

/** The payment provider's buttons (loaded only after Continue; currency USD). */
export default function PayPalCheckout(props: CheckoutHandlers & { config: PayPalConfig }) {
  const { config, ...handlers } = props;
  const options = {
    clientId: config.clientId,
    currency: config.currency || 'USD',
    intent: 'capture',
    ...(config.sdkBaseUrl ? { sdkBaseUrl: config.sdkBaseUrl } : {}),
  };
  return (
    <PayPalScriptProvider options={options as never}>
      <Buttons {...handlers} />
    </PayPalScriptProvider>
  );
}
