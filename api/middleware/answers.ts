/**
 * A refusal's answer (the handler recipe, docs/handler-recipe.md): a route maps each kind a
 * use-case returns by a table with one entry per kind, so the compiler names any kind left
 * without an answer. A kind with no data is answered by its status and message (`Refused`); a
 * kind that carries data (a version, a count, a package) by a function of it (`Answers`).
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../types.ts';

/** A refusal answered by its status and message alone. */
export interface Refused {
  status: ContentfulStatusCode;
  message: string;
}

/** Each refusal's answer, for every kind a use-case names; a kind's function gets its data. */
export type Answers<R extends { kind: string }> = { [K in R['kind']]: (c: Context<AppEnv>, r: Extract<R, { kind: K }>) => Response };

/** `{ message }` with the refusal's status. */
export const refuse = (c: Context<AppEnv>, refused: Refused) => c.json({ message: refused.message }, refused.status);

/** A table of statuses and messages, as answers (to spread into a table whose other kinds carry data). */
export function answersOf<K extends string>(table: Record<K, Refused>): Record<K, (c: Context<AppEnv>) => Response> {
  const answers = {} as Record<K, (c: Context<AppEnv>) => Response>;
  for (const kind of Object.keys(table) as K[]) answers[kind] = (c) => refuse(c, table[kind]);
  return answers;
}

/** A use-case's refusal → its answer in `answers`. */
export const answer = <R extends { kind: string }>(c: Context<AppEnv>, answers: Answers<R>, r: R): Response =>
  (answers[r.kind as R['kind']] as (c: Context<AppEnv>, r: R) => Response)(c, r);
