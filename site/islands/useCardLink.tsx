import { useEffect, useState, type ReactNode } from 'react';
import { request } from '../lib/http';
import { GIFT_CARD_LINK_INVALID } from '../../contract/gift-cards.ts';

/** The card and token of a gift card mail's link (`?card=…&token=…`), read in the browser. */
export function linkParams(): { id: string; token: string } {
  if (typeof location === 'undefined') return { id: '', token: '' };
  const params = new URLSearchParams(location.search);
  return { id: params.get('card') ?? '', token: params.get('token') ?? '' };
}

/**
 * What a gift card mail's link opens (issue 33: the buyer's change, the printable card): the
 * server's answer for `GET /api/gift-cards/{id}/{what}?token=…`, and, until it is there or when
 * the link is not one, the words to show instead (its refusal, or "loading").
 */
export function useCardLink<T>(what: 'delivery' | 'printable'): { data: T | null; setData: (d: T) => void; waiting: ReactNode } {
  const [data, setData] = useState<T | null>(null);
  const [failure, setFailure] = useState('');
  useEffect(() => {
    const { id, token } = linkParams();
    if (!id || !token) return setFailure(GIFT_CARD_LINK_INVALID);
    request<T>('GET', `/api/gift-cards/${encodeURIComponent(id)}/${what}?token=${encodeURIComponent(token)}`)
      .then((res) => (res.ok ? setData(res.data) : setFailure((res.data as { message?: string }).message || GIFT_CARD_LINK_INVALID)))
      .catch(() => setFailure('We couldn’t load this gift card. Please try again.'));
  }, [what]);
  const waiting = failure ? (
    <p className="field-error" role="alert">
      {failure}
    </p>
  ) : data ? null : (
    <p aria-busy="true">Loading your gift card…</p>
  );
  return { data, setData, waiting };
}
