import { useState } from 'react';
import AdminShell from './AdminShell';
import { AdminTable, formatLosAngeles, useAdminList, ExportLink } from './admin-ui';
import { request } from '../../lib/http';
import { usd } from '../../lib/money';
import { confirmDialog, showAlert } from '../../lib/alert';
import { SETTABLE_STATUSES, type AdminOrderView, type OrderStatus } from '../../../contract/orders.ts';

type Settable = (typeof SETTABLE_STATUSES)[number];
const statusLabels: Record<OrderStatus, string> = {
  payment_pending: 'Payment pending',
  payment_failed: 'Payment failed',
  paid: 'Paid',
  shipped: 'Shipped',
  picked_up: 'Picked up',
  refunded: 'Refunded',
};

const COLUMNS = ['Date', 'Buyer', 'Items', 'Items total', 'Discount', 'Shipping', 'Total', 'Delivery', 'Coupon', 'Status'] as const;

/**
 * A pickup order can't be shipped and a shipped one can't be picked up, and an order whose
 * payment is pending at PayPal can only be marked paid (the server refuses the rest).
 */
const allowed = (o: AdminOrderView, s: Settable) =>
  o.status === 'payment_pending' ? s === 'paid' : s === 'shipped' ? !o.isLocalPickup : s === 'picked_up' ? o.isLocalPickup : true;

function StatusSelect(props: { order: AdminOrderView; onChange: (o: AdminOrderView) => void }) {
  const { order } = props;
  const [saving, setSaving] = useState(false);
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
    let res;
    try {
      res = await request<AdminOrderView>('PUT', `/api/admin/orders/${encodeURIComponent(order._id)}/status`, { body: { status }, session: 'admin' });
    } catch {
      res = null;
    }
    setSaving(false);
    if (!res || !res.ok || !res.data._id) {
      await showAlert({ icon: 'error', title: 'Failed to update order.', text: res?.data.message });
      return;
    }
    props.onChange(res.data);
  }

  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
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
    </>
  );
}

function OrdersPanel() {
  const { items, setItems } = useAdminList<AdminOrderView>('/api/admin/orders', 'Failed to fetch orders.');
  const orders = items && [...items].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));

  return (
    <section className="admin-panel" aria-labelledby="orders-heading">
      <h2 id="orders-heading">Orders, newest first</h2>
      <ExportLink name="orders" label="orders" />
      {orders === null ? (
        <p role="status">Loading…</p>
      ) : orders.length === 0 ? (
        <p>No orders yet.</p>
      ) : (
        <AdminTable caption="Orders" columns={COLUMNS}>
          {orders.map((o) => (
            <tr key={o._id} data-order-row={o._id}>
              <td>{formatLosAngeles(o.createdAt)}</td>
              <td>
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
                {/* An order its checkout did not record itself (a crash): who did, so the teacher knows PayPal charged once. */}
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
              <td>
                <StatusSelect order={o} onChange={(u) => setItems((list) => (list ?? []).map((x) => (x._id === u._id ? u : x)))} />
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

export default function AdminOrders() {
  return (
    <AdminShell current="/admin/orders" title="Orders">
      {() => <OrdersPanel />}
    </AdminShell>
  );
}
