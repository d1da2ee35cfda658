/**
 * `npm run lint` is part of `npm test`: this proves that the repository's own ESLint and
 * Prettier configurations refuse code they are meant to refuse (a config that silently matched
 * no file, or lost a plugin, would let everything through).
 */
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';

const eslint = new ESLint({ cwd: process.cwd() });

async function rulesBroken(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('the lint configuration', () => {
  it('refuses a hook called conditionally in an island (react-hooks)', async () => {
    const code = `import { useState } from 'react';
export function Island({ on }: { on: boolean }) {
  if (on) {
    const [n] = useState(0);
    return <p>{n}</p>;
  }
  return null;
}
`;
    expect(await rulesBroken(code, 'site/islands/Broken.tsx')).toContain('react-hooks/rules-of-hooks');
  });

  it('refuses an image without alt text in an island (jsx-a11y)', async () => {
    const code = `export function Island() {
  return <img src="/tin.jpg" />;
}
`;
    expect(await rulesBroken(code, 'site/islands/Broken.tsx')).toContain('jsx-a11y/alt-text');
  });

  it('refuses an unused variable and an any in server code (typescript-eslint)', async () => {
    const code = `export function f(x: any) {
  const unused = 1;
  return x;
}
`;
    const rules = await rulesBroken(code, 'api/shop/broken.ts');
    expect(rules).toContain('@typescript-eslint/no-unused-vars');
    expect(rules).toContain('@typescript-eslint/no-explicit-any');
  });

  it('passes clean code', async () => {
    expect(await rulesBroken(`export const twice = (n: number): number => n * 2;\n`, 'api/shop/clean.ts')).toEqual([]);
  });
});

describe('the format check', () => {
  it('flags code that is not formatted the house way, and accepts it once formatted', async () => {
    const options = { ...(await prettier.resolveConfig('api/app.ts')), filepath: 'api/shop/broken.ts' };
    const messy = `export const f = (a:number,b:number)=>{ return a+b }\n`;
    expect(await prettier.check(messy, options)).toBe(false);
    const formatted = await prettier.format(messy, options);
    expect(formatted).toBe(`export const f = (a: number, b: number) => {\n  return a + b;\n};\n`);
    expect(await prettier.check(formatted, options)).toBe(true);
  });
});
