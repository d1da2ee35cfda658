/**
 * Typed guards for what a test expects to be there, instead of TypeScript's `!`: where
 * `rows[0]!.id` lets the test run on and crash later with "cannot read properties of undefined",
 * these fail at once and say what was missing. No test-runner import: Vitest's tests, their
 * helpers and Playwright's specs all use them.
 */

/** `value`, or the test fails naming `what` (the expression that came back empty). */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`Expected ${what} to be there, got ${value}`);
  return value;
}

/** The item at `index` of `list` (negative counts from the end, as Array#at), or the test fails. */
export function itemAt<T>(list: ArrayLike<T>, index: number): NonNullable<T> {
  const item = list[index < 0 ? list.length + index : index];
  if (item === undefined || item === null) throw new Error(`Expected an item at index ${index} of a list of ${list.length}, got ${item}`);
  return item;
}

/** The first item of `list` that `predicate` accepts, or the test fails quoting the predicate. */
export function mustFind<T, S extends T>(list: readonly T[], predicate: (item: T, index: number) => item is S): S;
export function mustFind<T>(list: readonly T[], predicate: (item: T, index: number) => unknown): T;
export function mustFind<T>(list: readonly T[], predicate: (item: T, index: number) => unknown): T {
  const index = list.findIndex(predicate);
  if (index === -1) throw new Error(`Expected an item where ${predicate.toString()}, among ${list.length}`);
  return list[index] as T;
}
