import { validator } from 'hono/validator';
import type { z } from 'zod';
import { check } from '../contract/check.ts';

/**
 * Hono validators backed by the shared zod schemas. A refusal is 400 with
 * `{message, issues}`; the handler sees only parsed, typed data.
 */
export const validateJson = <S extends z.ZodType>(schema: S) =>
  validator('json', (value, c) => {
    // Hono reads a non-JSON body as {}: a route whose fields are all optional would take it as
    // an empty edit. Only JSON is JSON.
    if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
      return c.json({ message: 'Send the request body as JSON (Content-Type: application/json)' }, 415);
    }
    const result = check(schema, value);
    if (!result.ok) return c.json({ message: result.message, issues: result.issues }, 400);
    return result.data as z.output<S>;
  });

export const validateQuery = <S extends z.ZodType>(schema: S) =>
  validator('query', (value, c) => {
    const result = check(schema, value);
    if (!result.ok) return c.json({ message: result.message, issues: result.issues }, 400);
    return result.data as z.output<S>;
  });

export const validateParams = <S extends z.ZodType>(schema: S) =>
  validator('param', (value, c) => {
    const result = check(schema, value);
    if (!result.ok) return c.json({ message: result.message, issues: result.issues }, 400);
    return result.data as z.output<S>;
  });
