import { useEffect, useState } from 'react';
import { request } from '../../lib/http';
import { creditOffer, type BalanceView } from '../../../contract/packages.ts';

/**
 * The client's session credits (issue 32), for the booking pages: for a session type, how many
 * they can book with and the words of the offer ("Use 1 of your 6 sessions (until 15 Feb)"), or
 * null when none fits. The server decides at the booking (the lot lapsing first, under a lock).
 */
export function useCredits(userId: string) {
  const balance = useBalance(userId);
  return (sessionType: string): { remaining: number; offer: string } | null => {
    const fitting = (balance?.credits ?? []).filter((c) => c.remaining > 0 && c.sessionTypes.includes(sessionType));
    if (fitting.length === 0) return null;
    const remaining = fitting.reduce((n, c) => n + c.remaining, 0);
    return { remaining, offer: creditOffer(remaining, fitting[0]!.expiresOn) };
  };
}

/** What the client holds (GET /api/user/{id}/balance), once loaded; null until then or when it cannot be read. */
export function useBalance(userId: string): BalanceView | null {
  const [balance, setBalance] = useState<BalanceView | null>(null);
  useEffect(() => {
    request<BalanceView>('GET', `/api/user/${encodeURIComponent(userId)}/balance`, { session: 'user' })
      .then((r) => r.ok && setBalance(r.data))
      .catch(() => {});
  }, [userId]);
  return balance;
}
