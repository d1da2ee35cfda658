/**
 * The JavaScript budgets of decision 0007 hold on the built site (Vitest's global setup builds it
 * when its sources changed), and the check does fail: a tiny fixture build whose page is over its
 * budget is reported, with only what loads before interaction counted.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBudgets, checkFirstTap, FIRST_TAP_BUDGET, formatReport, JS_BUDGET_KB } from '../../../scripts/check-budgets.ts';
import { must } from '../../helpers/guards.ts';

const distClient = path.resolve(import.meta.dirname, '../../../dist/client');

describe('JavaScript budgets (decision 0007)', () => {
  it('hold on the built site', () => {
    expect(existsSync(path.join(distClient, 'index.html')), 'dist/client is missing: run npm run build').toBe(true);
    const reports = checkBudgets(distClient);
    expect(reports.map((r) => r.route).sort()).toEqual(Object.keys(JS_BUDGET_KB).sort());
    expect(reports.filter((r) => r.problems.length).map(formatReport)).toEqual([]);
    // The count follows the pages' scripts and their imports, and the islands that hydrate at once:
    // /calendar's client:load island brings React; the content pages' navbar and footer do not.
    const at = (route: string) => reports.find((r) => r.route === route)!;
    expect(at('/calendar').files.atOnce.some((f) => /\/Calendar\.[\w-]+\.js$/.test(f))).toBe(true);
    expect(at('/calendar').atOnce).toBeGreaterThan(50 * 1024);
    expect(at('/about').atOnce).toBeLessThan(20 * 1024);
    expect(at('/about').inlineScripts).toBeGreaterThan(0);
  });

  it("hold on the first tap of the home page's form (issue 36): the form's own small module, no React, no zod", () => {
    const tap = checkFirstTap(distClient);
    expect(tap.problems).toEqual([]);
    expect(tap.files.length).toBeLessThanOrEqual(FIRST_TAP_BUDGET.files);
    expect(tap.served).toBeLessThanOrEqual(FIRST_TAP_BUDGET.servedKB * 1024);
    // The form's own module, fetched on the tap and not with the page (decision 0050).
    expect(tap.files.some((f) => /\/book-request-form\.[\w-]+\.js$/.test(f))).toBe(true);
    const home = checkBudgets(distClient, { '/': 80 })[0]!;
    expect(home.files.atOnce.some((f) => /book-request-form/.test(f))).toBe(false);
    // No framework on the home page at all: the islands' runtime (React's renderer) is in no file the page may load.
    expect([...home.files.atOnce, ...home.files.lazy].some((f) => /\/client\.[\w-]+\.js$/.test(f))).toBe(false);
    // A content page's scripts are one file, loaded before the tap and not again.
    const about = checkBudgets(distClient, { '/about': 20 })[0]!;
    expect(about.files.atOnce).toHaveLength(1);
    expect(tap.files).not.toContain(about.files.atOnce[0]);
  });

  describe('on a fixture build over its budget', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'budgets-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    // Random bytes do not compress: each file's gzip size is close to its length.
    const noise = (bytes: number) => `/*${randomBytes(bytes).toString('base64')}*/`;
    const files: Record<string, string> = {
      'index.html': [
        '<!doctype html><html><head>',
        '<script>window.inline = 1;</script>',
        '<script type="application/ld+json">{"@context":"https://schema.org"}</script>',
        '<script type="module" src="/_astro/page.js"></script>',
        '</head><body>',
        '<astro-island uid="a" component-url="/_astro/Eager.js" renderer-url="/_astro/client.js" client="load"></astro-island>',
        '<astro-island uid="b" component-url="/_astro/Below.js" renderer-url="/_astro/client.js" client="visible"></astro-island>',
        '<astro-island uid="c" component-url="/_astro/Touched.js" renderer-url="/_astro/client.js" client="interaction"></astro-island>',
        '<form data-plain-form="touched"><input name="name"></form>',
        '</body></html>',
      ].join('\n'),
      'small/index.html': '<!doctype html><script type="module" src="/_astro/tiny.js"></script>',
      '_astro/page.js': `import { shared } from './shared.js';\nexport * from "./reexported.js";\n${noise(600)}\nconst later = () => import(\`./lazy.js\`);\n`,
      '_astro/shared.js': `export const shared = 1;\n${noise(600)}\n`,
      '_astro/reexported.js': `export const again = 1;\n${noise(600)}\n`,
      '_astro/lazy.js': `import './lazy-dep.js';\n${noise(300)}\n`,
      '_astro/lazy-dep.js': noise(300),
      '_astro/Eager.js': `import { shared } from './shared.js';\n${noise(600)}\n`,
      '_astro/client.js': noise(600),
      '_astro/Below.js': noise(3000),
      '_astro/Touched.js': noise(3000),
      '_astro/tiny.js': 'export const tiny = 1;\n',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    const [home, small] = checkBudgets(root, { '/': 2, '/small': 2 });
    const gz = (...names: string[]) => names.reduce((n, name) => n + gzipSync(files[name]!).length, 0);

    it('counts scripts, their static imports and the islands that hydrate at once', () => {
      expect(must(home, 'home').files.atOnce).toEqual([
        '/_astro/Eager.js',
        '/_astro/client.js',
        '/_astro/page.js',
        '/_astro/reexported.js',
        '/_astro/shared.js',
      ]);
      expect(must(home, 'home').inlineScripts).toBe(1); // JSON-LD is not JavaScript
      expect(must(home, 'home').atOnce).toBe(
        gzipSync('window.inline = 1;').length + gz('_astro/Eager.js', '_astro/client.js', '_astro/page.js', '_astro/reexported.js', '_astro/shared.js'),
      );
    });

    it('counts dynamic imports apart, as lazy, and leaves out visible and interaction islands', () => {
      expect(must(home, 'home').files.lazy).toEqual(['/_astro/lazy-dep.js', '/_astro/lazy.js']);
      expect(must(home, 'home').lazy).toBe(gz('_astro/lazy.js', '_astro/lazy-dep.js'));
      expect([...must(home, 'home').files.atOnce, ...must(home, 'home').files.lazy].some((f) => /Below|Touched/.test(f))).toBe(false);
    });

    it('reports the page over its budget and passes the one within', () => {
      expect(must(home, 'home').atOnce + must(home, 'home').lazy).toBeGreaterThan(2 * 1024);
      expect(must(home, 'home').problems).toEqual([expect.stringMatching(/^JS \d+\.\d KB gzip > budget 2 KB$/)]);
      expect(formatReport(home!)).toContain('✗ JS');
      expect(must(small, 'small').problems).toEqual([]);
    });

    it('reports a first tap over its files or its bytes: the form module the page imports, less what the page had loaded', () => {
      const tap = { route: '/', form: 'touched', module: 'lazy', files: 4, servedKB: 64 };
      // The fixture's home page has no plain form of this name, or its scripts never import such a module.
      expect(checkFirstTap(root, { ...tap, form: 'Form' }).problems).toEqual(['no plain form Form on /']);
      expect(checkFirstTap(root, { ...tap, module: 'Touched' }).problems).toEqual(["/'s scripts never import Touched"]);
      // lazy.js (page.js imports it when it runs) and its own import (random bytes, no brotli copy).
      const tapped = checkFirstTap(root, { ...tap, servedKB: 0.5 });
      expect(tapped.files).toEqual(['/_astro/lazy-dep.js', '/_astro/lazy.js']);
      expect(tapped.served).toBe(Buffer.byteLength(files['_astro/lazy.js']!) + Buffer.byteLength(files['_astro/lazy-dep.js']!));
      expect(tapped.problems).toEqual([expect.stringMatching(/^the first tap fetches \d+\.\d KB of script as served > budget 0.5 KB$/)]);
      expect(checkFirstTap(root, { ...tap, files: 1 }).problems).toEqual(['the first tap fetches 2 script files > budget 1']);
    });

    it('reports a route with no page and a script the build lacks', () => {
      writeFileSync(path.join(root, 'broken.html'), '<script type="module" src="/_astro/gone.js"></script>');
      const [missing, broken] = checkBudgets(root, { '/nowhere': 80, '/broken': 80 });
      expect(must(missing, 'missing').problems).toEqual([expect.stringContaining('no page for /nowhere')]);
      expect(must(broken, 'broken').problems).toEqual(['/_astro/gone.js is not in the build']);
    });
  });
});
