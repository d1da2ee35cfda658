/** Public run-time configuration from the server (GET /api/config/public), fetched once per page. */
import type { PublicConfigView } from '../../contract/config.ts';
import { request } from './http';

let cached: Promise<PublicConfigView> | undefined;
export function publicConfig(): Promise<PublicConfigView> {
  cached ??= request<PublicConfigView>('GET', '/api/config/public').then((r) => {
    if (!r.ok) throw new Error(`config ${r.status}`);
    return r.data;
  });
  cached.catch(() => (cached = undefined));
  return cached;
}
