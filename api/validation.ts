import type { Env, MiddlewareHandler } from 'hono';
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

/** Any JSON but an object: `null`, an array, a number, a string, a boolean. */
export const NOT_AN_OBJECT = 'Send the request body as a JSON object: { … }';

/**
 * A JSON body a route may go without (publish's optional `{ version }`): no body reads as `{}`;
 * one that is sent must be JSON, and an object. `null`, arrays and scalars are refused with a 400
 * and a message here, before a handler could read a field of them (issue 29: `null` was a 500).
 */
export const validateOptionalJson =
  <S extends z.ZodType>(schema: S): MiddlewareHandler<Env, string, { in: { json: z.input<S> }; out: { json: z.output<S> } }> =>
  async (c, next) => {
    const text = await c.req.text();
    let value: unknown = {};
    if (text.trim() !== '') {
      if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
        return c.json({ message: 'Send the request body as JSON (Content-Type: application/json)' }, 415);
      }
      try {
        value = JSON.parse(text);
      } catch {
        return c.json({ message: 'Malformed JSON in request body' }, 400);
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return c.json({ message: NOT_AN_OBJECT }, 400);
    }
    const result = check(schema, value);
    if (!result.ok) return c.json({ message: result.message, issues: result.issues }, 400);
    c.req.addValidatedData('json', result.data as object);
    await next();
  };
