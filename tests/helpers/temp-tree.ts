/**
 * A fixture tree of files written to a temp folder, for the checks that read a repository
 * (boundaries, SQL in repos): each test breaks a rule in a tree of its own.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Writes `files` (path → text) under a new temp folder named after `prefix`; returns the folder. */
export function writeTree(prefix: string, files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}
