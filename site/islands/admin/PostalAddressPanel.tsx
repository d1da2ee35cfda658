import { useEffect, useId, useRef, useState } from 'react';
import { request } from '../../lib/http';
import { AdminForm, send } from './admin-ui';
import { TextArea } from '../Field';
import type { PostalAddressView, SettingsView } from '../../../contract/settings.ts';

/** Where the address her mails carry comes from, in a sentence. */
const fromWords = (from: PostalAddressView['from']) =>
  from === 'shop'
    ? 'Every newsletter carries your shop’s address (from your sales tax settings) until you set a postal address:'
    : 'Every newsletter carries your postal address:';

const HINT = 'A street address or a PO box, up to five lines: it is printed at the foot of every newsletter, beside the unsubscribe link.';

/**
 * Her postal address (issue 48, decision 0059): CAN-SPAM asks every newsletter and marketing mail
 * for one (a PO box will do). Shows the address her mails carry now, or that there is none and a
 * newsletter cannot be sent until she adds it, and a field to set it. On the Newsletter page and
 * in her Settings.
 */
export function PostalAddressPanel() {
  const id = useId();
  const [postal, setPostal] = useState<PostalAddressView | null>(null);
  const [address, setAddress] = useState('');
  const [status, setStatus] = useState('');
  // What she typed before the saved address arrived stays: the answer fills the field only if untouched.
  const typed = useRef(false);

  const show = (p: PostalAddressView) => {
    setPostal(p);
    setAddress(p.from === 'setting' ? p.address : '');
  };

  useEffect(() => {
    request<PostalAddressView>('GET', '/api/admin/settings/postal-address', { session: 'admin' })
      .then((r) => {
        if (!r.ok) return;
        if (typed.current) setPostal(r.data);
        else show(r.data);
      })
      .catch(() => {});
  }, []);

  async function save() {
    const saved = await send<SettingsView & { postal: PostalAddressView }>(
      'PUT',
      '/api/admin/settings/postal-address',
      { address },
      'Your postal address was not saved.',
    );
    if (!saved) return;
    show(saved.postal);
    setStatus(saved.message ?? '');
  }

  return (
    <section className="admin-panel" aria-labelledby={`${id}-heading`} data-postal-address={postal?.from ?? 'loading'}>
      <h2 id={`${id}-heading`}>Postal address</h2>
      {postal === null ? (
        <p role="status">Loading…</p>
      ) : postal.from === 'none' ? (
        <p className="field-warning" role="status">
          No postal address yet: the law (CAN-SPAM) asks every newsletter to carry one, so a newsletter cannot be sent until you add it below. A PO box will do.
        </p>
      ) : (
        <>
          <p>{fromWords(postal.from)}</p>
          <address data-postal-address-shown>
            {postal.address.split(/\r?\n/).map((line, i) => (
              <span key={i}>
                {i > 0 && <br />}
                {line}
              </span>
            ))}
          </address>
        </>
      )}
      <AdminForm label="Postal address" submit="Save postal address" onSubmit={() => void save()} status={status}>
        <TextArea
          id={`${id}-address`}
          label="Your postal address"
          hint={HINT}
          rows={3}
          value={address}
          onChange={(e) => {
            typed.current = true;
            setAddress(e.target.value);
          }}
        />
      </AdminForm>
    </section>
  );
}
