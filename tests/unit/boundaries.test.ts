/**
 * The folder arrows (scripts/check-boundaries.ts) hold on this repository, and the check does
 * fail: a fixture tree written to a temp folder breaks each arrow once, in each import form.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBoundaries, formatViolation } from '../../scripts/check-boundaries.ts';

describe('folder boundaries', () => {
  it('hold on this repository', () => {
    const violations = checkBoundaries(path.resolve(import.meta.dirname, '../..'));
    expect(violations.map(formatViolation)).toEqual([]);
  });

  describe('on a tree that breaks each of them', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'boundaries-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const files: Record<string, string> = {
      // site → api / db, in every import form the check reads
      'site/pages/static.ts': `import { app } from '../../api/app.ts';\nexport const x = app;\n`,
      'site/islands/Types.tsx': `import type { Database } from '../../db/schema.ts';\nexport type D = Database;\n`,
      'site/lib/lazy.ts': `export const load = () => import('../../api/shop/orders.repo.ts');\n`,
      'site/lib/barrel.ts': `export { migrateToLatest } from '../../db/migrate.ts';\n`,
      'site/pages/index.astro': [
        '---',
        "import Layout from '../layouts/Base.astro';",
        "import { openDb } from '../../db/client.ts';",
        '---',
        '<Layout><p>Mentioning ../../api/app.ts in prose is not an import.</p></Layout>',
        '<script>',
        "  import '../../api/env.ts';",
        '</script>',
        '',
      ].join('\n'),
      // allowed: site → site, contract, packages; a path in a comment or a string is not an import
      'site/lib/fine.ts': [
        "import { z } from 'zod';",
        "import { prices } from '../../contract/pricing.ts';",
        "import { http } from './http.ts';",
        "// import { app } from '../../api/app.ts';",
        'export const s = "import x from \'../../db/client.ts\'";',
        'export { z, prices, http };',
        '',
      ].join('\n'),
      // contract → zod and itself only
      'contract/pricing.ts': [
        "import { z } from 'zod';",
        "import { mini } from 'zod/mini';",
        "import { common } from './common.ts';",
        "import { readFileSync } from 'node:fs';",
        "import path from 'path';",
        "import { Hono } from 'hono';",
        "import type { Session } from '@oslojs/crypto/sha2';",
        "import { fmt } from '../site/lib/money.ts';",
        "import { users } from '../api/accounts/users.repo.ts';",
        'export { z, mini, common, readFileSync, path, Hono, fmt, users };',
        'export type S = Session;',
        '',
      ].join('\n'),
      'contract/common.ts': `export const common = 1;\n`,
      // db → packages only
      'db/seed.ts': [
        "import { Kysely } from 'kysely';",
        "import { readFileSync } from 'node:fs';",
        "import { hashPassword } from '../api/accounts/password.ts';",
        "import { prices } from '../contract/pricing.ts';",
        "import pkg from '../package.json';",
        'export { Kysely, readFileSync, hashPassword, prices, pkg };',
        '',
      ].join('\n'),
      // api → site is refused too; api → contract, db is the arrow
      'api/app.ts': [
        "import { openDb } from '../db/client.ts';",
        "import { prices } from '../contract/pricing.ts';",
        "import { money } from '../site/lib/money.ts';",
        'export { openDb, prices, money };',
        '',
      ].join('\n'),
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }

    const found = checkBoundaries(root);
    const seen = (file: string) =>
      found
        .filter((v) => v.file === file)
        .map(({ specifier, rule, line }) => ({ specifier, rule, line }))
        .sort((a, b) => a.line - b.line);

    it('site → api and site → db: static, type-only, dynamic, re-export and .astro imports', () => {
      expect(seen('site/pages/static.ts')).toEqual([{ specifier: '../../api/app.ts', rule: 'site → api', line: 1 }]);
      expect(seen('site/islands/Types.tsx')).toEqual([{ specifier: '../../db/schema.ts', rule: 'site → db', line: 1 }]);
      expect(seen('site/lib/lazy.ts')).toEqual([{ specifier: '../../api/shop/orders.repo.ts', rule: 'site → api', line: 1 }]);
      expect(seen('site/lib/barrel.ts')).toEqual([{ specifier: '../../db/migrate.ts', rule: 'site → db', line: 1 }]);
      expect(seen('site/pages/index.astro')).toEqual([
        { specifier: '../../db/client.ts', rule: 'site → db', line: 3 },
        { specifier: '../../api/env.ts', rule: 'site → api', line: 7 },
      ]);
      expect(seen('site/lib/fine.ts')).toEqual([]);
    });

    it('contract → anything but zod and itself', () => {
      expect(seen('contract/pricing.ts')).toEqual([
        { specifier: 'node:fs', rule: 'contract → node:fs', line: 4 },
        { specifier: 'path', rule: 'contract → node:path', line: 5 },
        { specifier: 'hono', rule: 'contract → package hono', line: 6 },
        { specifier: '@oslojs/crypto/sha2', rule: 'contract → package @oslojs/crypto', line: 7 },
        { specifier: '../site/lib/money.ts', rule: 'contract → site', line: 8 },
        { specifier: '../api/accounts/users.repo.ts', rule: 'contract → api', line: 9 },
      ]);
      expect(seen('contract/common.ts')).toEqual([]);
    });

    it('db → anything of ours', () => {
      expect(seen('db/seed.ts')).toEqual([
        { specifier: '../api/accounts/password.ts', rule: 'db → api', line: 3 },
        { specifier: '../contract/pricing.ts', rule: 'db → contract', line: 4 },
        { specifier: '../package.json', rule: 'db → package.json', line: 5 },
      ]);
    });

    it('api → site', () => {
      expect(seen('api/app.ts')).toEqual([{ specifier: '../site/lib/money.ts', rule: 'api → site', line: 3 }]);
    });

    it('reports file, line and specifier', () => {
      expect(found).toHaveLength(16);
      expect(found.map(formatViolation)).toContain("db/seed.ts:3 imports '../api/accounts/password.ts' (db → api)");
    });
  });
});
