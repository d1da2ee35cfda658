/** Public run-time configuration from the server (GET /api/config/public), fetched once per page. */
export interface PublicConfig {
  recaptchaSiteKey: string | null;
  googleSignIn: boolean;
  realtimeHost: string;
  timezone: string;
}

let cached: Promise<PublicConfig> | undefined;
export function publicConfig(): Promise<PublicConfig> {
  cached ??= fetch('/api/config/public').then((r) => {
    if (!r.ok) throw new Error(`config ${r.status}`);
    return r.json() as Promise<PublicConfig>;
  });
  cached.catch(() => (cached = undefined));
  return cached;
}
