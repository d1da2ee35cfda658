import { useState } from 'react';
import { adminScreen } from './AdminShell';
import {
  AdminTable,
  ExportLink,
  FilterNote,
  byMonth,
  formatLosAngeles,
  formatWhen,
  monthOfInstant,
  PagedListing,
  usePagedList,
  useFocusRow,
  useListFilter,
} from './admin-ui';
import { request } from '../../lib/http';
import { usd, usdFromCents } from '../../lib/money';
import { confirmDialog, showAlert } from '../../lib/alert';
import {
  KNOWN_CARRIERS,
  SETTABLE_STATUSES,
  orderReference,
  type AdminOrderStatusView,
  type AdminOrderView,
  type OrderStatus,
} from '../../../contract/orders.ts';
import { TextInput } from '../Field';

type Settable = (typeof SETTABLE_STATUSES)[number];
const statusLabels: Record<OrderStatus, string> = {
  payment_pending: 'Payment pending',
  payment_failed: 'Payment failed',
  paid: 'Paid',
  ready_for_pickup: 'Ready for pickup',
  shipped: 'Shipped',
  picked_up: 'Picked up',
  refunded: 'Refunded',
};

const COLUMNS = ['Date', 'Buyer', 'Items', 'Items total', 'Discount', 'Shipping', 'Total', 'Delivery', 'Coupon', 'Status'] as const;

/**
 * A pickup order can't be shipped and a shipped one can't be ready for pickup or picked up, and
 * an order whose payment is pending at PayPal can only be marked paid (the server refuses the rest).
 */
const allowed = (o: AdminOrderView, s: Settable) =>
  o.status === 'payment_pending' ? s === 'paid' : s === 'shipped' ? !o.isLocalPickup : s === 'picked_up' || s === 'ready_for_pickup' ? o.isLocalPickup : true;

/**
 * Marking an order shipped sends what is typed here (issue 20): the buyer's mail links the number
 * on the carrier's site for USPS, UPS, FedEx and DHL. Shown while a shipped order waits to go.
 */
function TrackingFields(props: {
  order: AdminOrderView;
  value: { trackingNumber: string; carrier: string };
  onChange: (v: { trackingNumber: string; carrier: string }) => void;
}) {
  const { order, value } = props;
  const id = `tracking-${order._id}`;
  return (
    <div className="tracking-fields" data-tracking-fields>
      <TextInput
        id={`${id}-number`}
        label="Tracking number (optional)"
        value={value.trackingNumber}
        maxLength={64}
        autoComplete="off"
        onChange={(e) => props.onChange({ ...value, trackingNumber: e.target.value })}
      />
      <TextInput
        id={`${id}-carrier`}
        label="Carrier"
        value={value.carrier}
        maxLength={40}
        placeholder={KNOWN_CARRIERS.join(', ')}
        onChange={(e) => props.onChange({ ...value, carrier: e.target.value })}
      />
    </div>
  );
}

function StatusSelect(props: { order: AdminOrderView; onChange: (o: AdminOrderView) => void; onConfirmed: (message: string) => void }) {
  const { order } = props;
  const [saving, setSaving] = useState(false);
  const [tracking, setTracking] = useState({ trackingNumber: '', carrier: '' });
  const id = `status-${order._id}`;
  const label = `Status of the order of ${order.payerName || order.payerEmail || 'unknown buyer'} on ${formatLosAngeles(order.createdAt)}`;

  // PayPal's last word: nothing the admin could set would be true.
  if (order.status === 'refunded' || order.status === 'payment_failed') return <span>{statusLabels[order.status]}</span>;

  async function change(status: Settable) {
    if (status === order.status) return;
    if (
      order.status === 'payment_pending' &&
      !(await confirmDialog({
        title: 'Mark this order paid?',
        text: 'PayPal has not reported this payment as completed. Mark the order paid only after checking in PayPal that the money arrived.',
        confirmText: 'Yes, it is paid',
        cancelText: 'Cancel',
      }))
    ) {
      return;
    }
    setSaving(true);
    const body = status === 'shipped' ? { status, trackingNumber: tracking.trackingNumber, carrier: tracking.carrier } : { status };
    let res;
    try {
      res = await request<AdminOrderStatusView>('PUT', `/api/admin/orders/${encodeURIComponent(order._id)}/status`, { body, session: 'admin' });
    } catch {
      res = null;
    }
    setSaving(false);
    if (!res || !res.ok || !res.data._id) {
      await showAlert({ icon: 'error', title: 'Failed to update order.', text: res?.data.message });
      return;
    }
    props.onChange(res.data);
    props.onConfirmed(res.data.message);
  }

  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      {!order.isLocalPickup && order.status === 'paid' && <TrackingFields order={order} value={tracking} onChange={setTracking} />}
      <select id={id} value={order.status} disabled={saving} onChange={(e) => void change(e.target.value as Settable)}>
        {order.status === 'payment_pending' && (
          <option value="payment_pending" disabled>
            {statusLabels.payment_pending}
          </option>
        )}
        {SETTABLE_STATUSES.map((s) => (
          <option key={s} value={s} disabled={!allowed(order, s)}>
            {statusLabels[s]}
          </option>
        ))}
      </select>
      {order.trackingNumber && order.status === 'shipped' && (
        <small className="tracking" data-tracking>
          {order.carrier ? `${order.carrier} ` : ''}
          {order.trackingUrl ? (
            <a href={order.trackingUrl} target="_blank" rel="noopener noreferrer">
              {order.trackingNumber}
            </a>
          ) : (
            order.trackingNumber
          )}
        </small>
      )}
    </>
  );
}

/** The statuses an order can be refunded from: money kept (a pending payment is PayPal's to settle first). */
const REFUNDABLE: readonly AdminOrderView['status'][] = ['paid', 'ready_for_pickup', 'shipped', 'picked_up'];

/**
 * Her refund of a whole order (issue 33): PayPal's part back through PayPal, a gift card's part
 * back on the card, the buyer mailed; asked once more before, since it cannot be undone.
 */
function RefundButton(props: { order: AdminOrderView; onRefunded: (o: AdminOrderView, message: string) => void }) {
  const { order } = props;
  const [busy, setBusy] = useState(false);
  if (!REFUNDABLE.includes(order.status)) return null;
  async function refund() {
    const parts = order.giftCardCents > 0 ? ` (${usdFromCents(order.giftCardCents)} back on the gift card, the rest through PayPal)` : ' through PayPal';
    if (
      !(await confirmDialog({
        title: 'Refund this order?',
        text: `${usd(order.total)} goes back to ${order.payerName || 'the buyer'}${parts}. This cannot be undone.`,
        confirmText: 'Refund',
      }))
    )
      return;
    setBusy(true);
    try {
      const res = await request<AdminOrderView & { message: string }>('POST', `/api/admin/orders/${encodeURIComponent(order._id)}/refund`, {
        session: 'admin',
      });
      if (!res.ok) {
        await showAlert({ icon: 'error', title: 'Refund Failed', text: res.data.message });
        return;
      }
      props.onRefunded(res.data, res.data.message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <button type="button" className="button button-quiet button-small" disabled={busy} onClick={() => void refund()}>
      Refund<span className="sr-only"> order {order._id}</span>
    </button>
  );
}

function OrdersPanel() {
  // The Today panel's "orders to deliver" link: the paid ones. The search finds a buyer or an order's number.
  const filter = useListFilter();
  // A page at a time, newest first (issue 36): the server searches and filters, the list draws what came.
  const list = usePagedList<AdminOrderView>('/api/admin/orders', { status: filter.status, pickup: filter.pickup }, 'Failed to fetch orders.');
  const { items: orders, setItems } = list;
  // What the last status change did, e.g. "Marked shipped. Ana was mailed the tracking number.",
  // said beside that order (issue 30: at the top of the list it landed above the screen).
  const [confirmation, setConfirmation] = useState<{ id: string; message: string } | null>(null);
  // A Today item's order (issue 30): scrolled to and marked once the list is drawn.
  const { rowProps } = useFocusRow(orders !== null);
  // An order she changes stays in a filtered list with its new status until she leaves (a paid
  // order marked shipped does not vanish from "to ship" under her thumb): the server filtered the
  // pages when they came, and a change only replaces the order in place.

  return (
    <section className="admin-panel" aria-labelledby="orders-heading">
      <h2 id="orders-heading">Orders, newest first</h2>
      <ExportLink name="orders" label="orders" />
      {filter.status && (
        <FilterNote>
          {statusLabels[filter.status]} orders only{filter.status === 'paid' ? ': to ship or hand over' : ''}.
        </FilterNote>
      )}
      {filter.pickup && <FilterNote>Pickups to hand over: paid or ready for pickup.</FilterNote>}
      <PagedListing
        list={list}
        search="Search orders by buyer or number"
        searchable={Boolean(filter.status || filter.pickup)}
        empty={filter.status || filter.pickup ? 'No orders here.' : 'No orders yet.'}
        noun={['order', 'orders']}
      >
        {(shown) => (
          <AdminTable
            caption="Orders"
            columns={COLUMNS}
            groups={byMonth(shown, (o) => monthOfInstant(o.createdAt)).map((g) => ({
              key: g.key,
              label: g.label,
              rows: g.items.map((o) => (
                <tr key={o._id} data-order-row={o._id} data-order-number={orderReference(o._id)} {...rowProps(o._id)}>
                  <td>
                    {formatWhen(o.createdAt)}
                    <br />
                    <small className="muted">No. {orderReference(o._id)}</small>
                  </td>
                  <td data-card="title">
                    {o.payerName || <span className="muted">No name</span>}
                    {o.payerEmail && (
                      <>
                        <br />
                        <a href={`mailto:${o.payerEmail}`}>{o.payerEmail}</a>
                      </>
                    )}
                  </td>
                  <td>
                    <ul className="plain-list">
                      {o.items.map((i, n) => (
                        <li key={n}>
                          {i.name} × {i.quantity}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td>{usd(o.itemsTotal)}</td>
                  <td>{o.discount > 0 ? `−${usd(o.discount)}` : usd(0)}</td>
                  <td>{usd(o.shipping)}</td>
                  <td>
                    <strong>{usd(o.total)}</strong>
                    {/* The sales tax in the total (issue 24). */}
                    {o.taxCents > 0 && (
                      <>
                        <br />
                        <small data-order-tax>
                          {o.taxLabel}: {usd(o.tax)}
                        </small>
                      </>
                    )}
                    {/* An order its checkout did not record itself (a crash): who did, so the teacher knows PayPal charged once. */}
                    {/* Paid partly or wholly with a gift card (issue 33). */}
                    {o.giftCardCents > 0 && (
                      <>
                        <br />
                        <small data-order-gift-card>Gift card: {usdFromCents(o.giftCardCents)}</small>
                      </>
                    )}
                    {o.paymentNote && (
                      <>
                        <br />
                        <small data-payment-note>{o.paymentNote}</small>
                      </>
                    )}
                  </td>
                  <td>
                    {o.isLocalPickup ? (
                      'Local pickup'
                    ) : (
                      <>
                        Shipping
                        {o.shipTo ? (
                          <address className="ship-to">
                            {o.shipTo.name && <strong>{o.shipTo.name}</strong>}
                            {o.shipTo.address}
                          </address>
                        ) : (
                          <span className="muted"> (address in PayPal)</span>
                        )}
                      </>
                    )}
                  </td>
                  <td>{o.couponCode ?? '—'}</td>
                  {/* On a phone the status is the card's one action, at its top (admin.css). */}
                  <td data-card="action">
                    <StatusSelect
                      order={o}
                      onChange={(u) => {
                        setItems((list) => (list ?? []).map((x) => (x._id === u._id ? u : x)));
                      }}
                      onConfirmed={(message) => setConfirmation({ id: o._id, message })}
                    />
                    <RefundButton
                      order={o}
                      onRefunded={(u, message) => {
                        setItems((list) => (list ?? []).map((x) => (x._id === u._id ? u : x)));
                        setConfirmation({ id: o._id, message });
                      }}
                    />
                    <p role="status" className="muted" data-order-confirmation>
                      {confirmation?.id === o._id ? confirmation.message : ''}
                    </p>
                  </td>
                </tr>
              )),
            }))}
          />
        )}
      </PagedListing>
    </section>
  );
}

export default adminScreen('/admin/orders', 'Orders', OrdersPanel);
