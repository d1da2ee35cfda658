/**
 * The folder arrows (scripts/check-boundaries.ts) hold on this repository, and the check does
 * fail: a fixture tree written to a temp folder breaks each arrow once, in each import form.
 * Inside api/ (issue 31, decision 0035): no import circle, floors import no wing, a wing imports
 * another only as API_WING_IMPORTS lists it, one two-way folder pair at most; a second fixture
 * tree breaks each of those rules once.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTree } from '../../helpers/temp-tree.ts';
import { API_ENTRIES, API_FLOORS, API_TWO_WAY, API_WING_IMPORTS, checkBoundaries, formatViolation, type ApiRules } from '../../../scripts/check-boundaries.ts';

describe('folder boundaries', () => {
  it('hold on this repository', () => {
    const violations = checkBoundaries(path.resolve(import.meta.dirname, '../../..'));
    expect(violations.map(formatViolation)).toEqual([]);
  });

  it("list every import between api/'s wings with its reason, and one two-way pair at most", () => {
    expect(API_TWO_WAY.length).toBeLessThanOrEqual(1);
    for (const w of API_WING_IMPORTS) expect(w.why.length, `${w.from} → ${w.to}`).toBeGreaterThan(10);
    expect(new Set(API_WING_IMPORTS.map((w) => `${w.from} → ${w.to}`)).size).toBe(API_WING_IMPORTS.length);
  });

  describe('on a tree that breaks each of them', () => {
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
    const root = writeTree('boundaries', files);
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    // Its api/ holds only an entry: none of this repository's wing imports apply to it.
    const found = checkBoundaries(root, { entries: API_ENTRIES, floors: API_FLOORS, wingImports: [], twoWay: [] });
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
  describe("inside api/, on a tree that breaks each of api/'s rules", () => {
    const files: Record<string, string> = {
      // entries import anything; an entry imports an entry
      'api/app.ts': "import { a } from './accounts/a.ts';\nimport { b } from './booking/b.ts';\nexport const app = [a, b];\n",
      'api/boot.ts': "import { app } from './app.ts';\nimport { env } from './env.ts';\nexport const boot = [app, env];\n",
      'api/env.ts': 'export const env = 1;\n',
      'api/types.ts': "import type { Services } from './services/index.ts';\nexport type T = Services;\n",
      'api/services/index.ts': "import type { Clock } from '../lib/clock.ts';\nexport type Services = { clock: Clock };\n",
      'api/lib/clock.ts': 'export type Clock = { now(): Date };\n',
      // a file at api/'s root that is neither an entry nor a floor
      'api/stray.ts': 'export const stray = 1;\n',
      // a floor importing a wing
      'api/lib/brand.ts': "import { pageOf } from '../pages/p.ts';\nexport const brand = pageOf;\n",
      // the named two-way pair, through listed imports: no violation
      'api/accounts/a.ts': "import { cancel } from '../booking/b.ts';\nimport { env } from '../env.ts';\nexport const a = [cancel, env];\n",
      'api/booking/b.ts': [
        "import { user } from '../accounts/u.ts';",
        "import { pay } from '../payments/p.ts';",
        "import type { T } from '../types.ts';",
        // not listed
        "import { shop } from '../shop/s.ts';",
        'export const cancel = [user, pay, shop];',
        'export type B = T;',
        '',
      ].join('\n'),
      'api/accounts/u.ts': 'export const user = 1;\n',
      // a wing importing an entry
      'api/books/x.ts': "import { app } from '../app.ts';\nexport const x = app;\n",
      'api/payments/p.ts': 'export const pay = 1;\n',
      'api/pages/p.ts': 'export const pageOf = 1;\n',
      // a circle between two files of one wing, through a type-only import
      'api/shop/s.ts': "import type { K } from './k.ts';\nimport { place } from '../classes/c.ts';\nexport const shop = place;\nexport type S = K;\n",
      'api/shop/k.ts': "import type { S } from './s.ts';\nexport type K = S | 1;\n",
      // two wings importing each other (both imports listed, the pair not named)
      'api/classes/c.ts': "import { view } from '../shop/v.ts';\nexport const place = view;\n",
      'api/shop/v.ts': 'export const view = 1;\n',
      // three wings in a circle, every import listed
      'api/forms/f.ts': "import { g } from '../galleries/g.ts';\nexport const f = g;\n",
      'api/galleries/g.ts': "import { i } from '../images/i.ts';\nexport const g = i;\n",
      'api/images/i.ts': "import { f } from '../forms/f.ts';\nexport const i = f;\n",
    };
    const rules: ApiRules = {
      entries: ['app.ts', 'boot.ts'],
      floors: ['lib', 'services', 'env.ts', 'types.ts'],
      wingImports: [
        { from: 'accounts', to: 'booking/b.ts', why: 'erasure' },
        { from: 'booking', to: 'accounts/u.ts', why: 'names the client' },
        { from: 'booking', to: 'payments/p.ts', why: 'pays' },
        { from: 'shop', to: 'classes/c.ts', why: 'test' },
        { from: 'classes', to: 'shop/v.ts', why: 'test' },
        { from: 'forms', to: 'galleries/g.ts', why: 'test' },
        { from: 'galleries', to: 'images/i.ts', why: 'test' },
        { from: 'images', to: 'forms/f.ts', why: 'test' },
        // listed, imported by nobody
        { from: 'books', to: 'shop/gone.ts', why: 'stale' },
      ],
      twoWay: [{ pair: ['accounts', 'booking'], why: 'decision' }],
    };
    const root = writeTree('boundaries', files);
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const found = checkBoundaries(root, rules).map(formatViolation);

    it('reports a floor importing a wing, a wing importing an entry, an unlisted wing import and an unplaced root file', () => {
      expect(found).toContain("api/lib/brand.ts:1 imports '../pages/p.ts' (api: floor lib → wing pages)");
      expect(found).toContain("api/books/x.ts:1 imports '../app.ts' (api: books → entry app.ts)");
      expect(found).toContain("api/booking/b.ts:4 imports '../shop/s.ts' (api: wing booking → shop/s.ts, not in API_WING_IMPORTS)");
      expect(found).toContain("api/stray.ts:1 imports '' (api: a file at api/'s root that is neither an entry nor a floor)");
    });

    it('reports an import circle between files, a type-only import included', () => {
      expect(found).toContain("api/shop/k.ts:1 imports './s.ts' (api: import circle shop/k.ts → shop/s.ts → shop/k.ts)");
      expect(found).toContain("api/forms/f.ts:1 imports '../galleries/g.ts' (api: import circle forms/f.ts → galleries/g.ts → images/i.ts → forms/f.ts)");
    });

    it('reports two folders that import each other, and a circle of three, unless the pair is the named one', () => {
      expect(found).toContain("api/classes/c.ts:1 imports '../shop/v.ts' (api: folders classes and shop import each other)");
      expect(found).toContain("api/forms/f.ts:1 imports '../galleries/g.ts' (api: folder circle forms → galleries → images → forms)");
      expect(found.filter((v) => /accounts|booking\/b\.ts:[123] /.test(v))).toEqual([]);
    });

    it('reports a listed import nobody makes, and nothing else', () => {
      expect(found).toContain("scripts/check-boundaries.ts:0 imports 'shop/gone.ts' (API_WING_IMPORTS: books → shop/gone.ts is imported no more)");
      expect(found, found.join('\n')).toHaveLength(9);
    });

    it('allows one two-way pair at most, and only one that is there', () => {
      const two = checkBoundaries(root, {
        ...rules,
        twoWay: [...rules.twoWay, { pair: ['classes', 'shop'], why: 'a second' }, { pair: ['books', 'pages'], why: 'not there' }],
      }).map(formatViolation);
      expect(two).toContain("scripts/check-boundaries.ts:0 imports '' (API_TWO_WAY names 3 pairs; one at most)");
      expect(two).toContain("scripts/check-boundaries.ts:0 imports '' (API_TWO_WAY: books and pages import each other no more)");
      expect(two.filter((v) => v.includes('classes and shop'))).toEqual([]);
    });
  });
});
