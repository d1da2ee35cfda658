/** JSON over fetch for the islands: same-origin cookies, the server's {message} on failure. */
export interface JsonResult<T> {
  ok: boolean;
  status: number;
  data: T & { message?: string };
}

export async function sendJson<T = unknown>(method: string, url: string, body?: unknown): Promise<JsonResult<T>> {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data: unknown = {};
  try {
    data = await res.json();
  } catch {
    data = {};
  }
  return { ok: res.ok, status: res.status, data: (data ?? {}) as T & { message?: string } };
}

export const postJson = <T = unknown>(url: string, body: unknown) => sendJson<T>('POST', url, body);
export const getJson = <T = unknown>(url: string) => sendJson<T>('GET', url);
