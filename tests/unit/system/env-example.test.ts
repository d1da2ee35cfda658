/**
 * Issue 29, "Small truths": `.env.example` names every variable the server reads (api/env.ts,
 * the authority) and none it doesn't, so a copy of it configures what is there.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '../../../api/env.ts';

const example = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
/** The `NAME=` lines, comments left out. */
const named = [...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);

describe('.env.example', () => {
  it('names every variable api/env.ts reads', () => {
    expect(ENV_VARIABLES.length).toBeGreaterThan(40);
    expect(ENV_VARIABLES.filter((v) => !named.includes(v))).toEqual([]);
  });

  it('names no variable the server does not read (RESEND_API_BASE was one), and each once', () => {
    expect(named.filter((v) => !ENV_VARIABLES.includes(v))).toEqual([]);
    expect(named.filter((v, i) => named.indexOf(v) !== i)).toEqual([]);
  });
});
