/**
 * A file upload with progress. fetch() reports no upload progress, so this one call uses
 * XMLHttpRequest; everything else goes through request() in ./http. A 401 is checked with a
 * cheap admin GET through request(): a session that has ended leaves for the login page there;
 * one still valid (the 401 came from something else) gets the upload tried once more.
 */
import { request, type JsonResult } from './http';

export function uploadWithProgress<T>(url: string, form: FormData, onProgress: (fraction: number) => void, refreshUrl: string): Promise<JsonResult<T>> {
  const once = () =>
    new Promise<JsonResult<T>>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', url);
      xhr.responseType = 'json';
      xhr.upload.addEventListener('progress', (e) => {
        if (e.lengthComputable) onProgress(e.loaded / e.total);
      });
      xhr.addEventListener('load', () => {
        const data = (xhr.response ?? {}) as T & { message?: string };
        resolve({ ok: xhr.status >= 200 && xhr.status < 300, status: xhr.status, data });
      });
      xhr.addEventListener('error', () => reject(new Error('network')));
      xhr.addEventListener('timeout', () => reject(new Error('timeout')));
      // 20 MB on a slow phone line: minutes, not the 30 s a JSON call gets.
      xhr.timeout = 10 * 60_000;
      xhr.send(form);
    });
  return once().then(async (res) => {
    if (res.status !== 401) return res;
    const check = await request('GET', refreshUrl, { session: 'admin' });
    return check.ok ? once() : res;
  });
}
