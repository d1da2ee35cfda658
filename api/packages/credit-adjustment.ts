/**
 * Her adjustment of a client's sessions with its reason (issue 32, decision 0035), as the handler
 * recipe writes a change (docs/handler-recipe.md): the ledger's adjustment (ledger.ts
 * adjustCredits: more sessions a lot of their own, fewer taken from the lots lapsing first, never
 * below zero) in one transaction under the client's row lock; a refusal returned as its kind.
 */
import type { Services } from '../services/index.ts';
import { adjustCredits, type AdjustResult } from '../money/ledger.ts';

export type CreditAdjustmentRefusal = Extract<AdjustResult, { ok: false }>;

/** Adds or takes sessions on her word; never below what the client holds. */
export function adjustClientCredits(
  { db }: Pick<Services, 'db'>,
  input: { userId: string; sessions: number; reason: string; today: string },
): Promise<AdjustResult> {
  return db.transaction().execute((trx) => adjustCredits(trx, input));
}
