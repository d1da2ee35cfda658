import { describe, expect, it, vi } from 'vitest';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import { onError } from '../../../api/middleware/errors.ts';
import { validateJson } from '../../../api/validation.ts';
import { check, fieldErrors } from '../../../contract/check.ts';
import { email, isoDate, clockTime, requiredText } from '../../../contract/common.ts';

const form = z.object({ name: requiredText('Name', 50), email, date: isoDate, time: clockTime });

function app() {
  const a = new Hono();
  a.onError(onError);
  a.get('/boom', () => {
    throw new Error('duplicate key value violates unique constraint "users_email_key" in SELECT * FROM users');
  });
  a.get('/refused', () => {
    throw new HTTPException(409, { message: 'Already there' });
  });
  a.post('/form', validateJson(form), (c) => c.json(c.req.valid('json')));
  return a;
}

describe('error handler', () => {
  it('answers an unexpected failure with a plain JSON 500: no SQL, no stack', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await app().request('/boom');
    spy.mockRestore();
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ message: 'Something went wrong on our side. Please try again later.' });
    expect(text).not.toMatch(/SELECT|constraint|at .*:\d+/);
  });

  it('keeps the status and message of a deliberate refusal', async () => {
    const res = await app().request('/refused');
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: 'Already there' });
  });
});

describe('validateJson', () => {
  const post = (body: string) => app().request('/form', { method: 'POST', body, headers: { 'content-type': 'application/json' } });

  it('refuses malformed JSON with 400 and a message', async () => {
    const res = await post('{"name":');
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/JSON/i);
  });

  it('refuses wrong types and missing fields with the field named', async () => {
    const res = await post(JSON.stringify({ name: 42, email: 'a@b.co', date: '2030-02-30', time: '7pm' }));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.message).toMatch(/^name: /);
    expect(body.issues.map((i: { path: string }) => i.path)).toEqual(['name', 'date', 'time']);
  });

  it('hands the handler trimmed, normalised data', async () => {
    const res = await post(JSON.stringify({ name: '  Ana  ', email: ' Ana@Example.COM ', date: '2030-02-28', time: '07:30', extra: 'x' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'Ana', email: 'ana@example.com', date: '2030-02-28', time: '07:30' });
  });
});

describe('check (shared with the islands)', () => {
  it('gives one message per field for showing next to inputs', () => {
    const result = check(form, { name: '', email: 'not an email', date: '2030-01-01', time: '24:00' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(fieldErrors(result.issues)).toEqual({
      name: 'Name is required',
      email: 'Please enter a valid email address.',
      time: 'Time must look like HH:mm',
    });
  });

  it('refuses control characters and overlong text', () => {
    expect(check(requiredText('Name', 5), 'abc\u0000').ok).toBe(false);
    expect(check(requiredText('Name', 5), 'abcdef').ok).toBe(false);
    expect(check(requiredText('Name', 5), 'Zoë').ok).toBe(true);
  });
});
