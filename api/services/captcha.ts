/**
 * The human check: reCAPTCHA v3 verified server side per action, or, without keys and never
 * in production, a dev verifier. The islands obtain the token `dev:<action>` when no site key
 * is configured; the dev verifier accepts exactly that and refuses everything else, so tests
 * can exercise both answers.
 */
export interface HumanCheck {
  readonly kind: 'recaptcha' | 'dev';
  /** True only for a token issued for this action and judged human. */
  verify(token: unknown, action: string, remoteIp?: string): Promise<boolean>;
}

export function createDevHumanCheck(): HumanCheck {
  return {
    kind: 'dev',
    async verify(token, action) {
      return typeof token === 'string' && token === `dev:${action}`;
    },
  };
}

export function createRecaptcha(options: { secret: string; verifyUrl: string; minScore: number; fetch?: typeof fetch }): HumanCheck {
  const doFetch = options.fetch ?? fetch;
  return {
    kind: 'recaptcha',
    async verify(token, action, remoteIp) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 4096) return false;
      const form = new URLSearchParams({ secret: options.secret, response: token });
      if (remoteIp) form.set('remoteip', remoteIp);
      try {
        const res = await doFetch(options.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
          signal: AbortSignal.timeout(5000),
        });
        if (!res.ok) return false;
        const body = (await res.json()) as { success?: boolean; action?: string; score?: number };
        return body.success === true && body.action === action && (body.score ?? 0) >= options.minScore;
      } catch {
        // Google unreachable: refuse rather than let every bot through.
        return false;
      }
    },
  };
}
