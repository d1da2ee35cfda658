/**
 * Human-verification tokens per action (SPEC.md section 7). With a reCAPTCHA v3 site key the
 * Google script is loaded on first use (not at page load: most visitors never submit a form)
 * and asked for a token; without one (development, tests) the token is `dev:<action>`, which
 * only the server's dev verifier accepts.
 */
import { publicConfig } from './config';
import { showAlert } from './alert';

export const CAPTCHA_NOT_LOADED = 'reCAPTCHA not loaded or site key missing';

export class CaptchaError extends Error {
  /** True when the verification service itself could not be loaded. */
  readonly loadFailed: boolean;
  constructor(message: string, loadFailed: boolean) {
    super(message);
    this.loadFailed = loadFailed;
  }
}

interface Grecaptcha {
  ready(cb: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

let script: Promise<Grecaptcha> | undefined;
function loadRecaptcha(siteKey: string): Promise<Grecaptcha> {
  script ??= new Promise<Grecaptcha>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    s.async = true;
    s.onload = () => {
      const g = (window as unknown as { grecaptcha?: Grecaptcha }).grecaptcha;
      if (g) g.ready(() => resolve(g));
      else reject(new CaptchaError(CAPTCHA_NOT_LOADED, true));
    };
    s.onerror = () => reject(new CaptchaError(CAPTCHA_NOT_LOADED, true));
    document.head.append(s);
  });
  script.catch(() => (script = undefined));
  return script;
}

export async function getCaptchaToken(action: string): Promise<string> {
  let siteKey: string | null;
  try {
    siteKey = (await publicConfig()).recaptchaSiteKey;
  } catch {
    throw new CaptchaError(CAPTCHA_NOT_LOADED, true);
  }
  if (!siteKey) return `dev:${action}`;
  const g = await loadRecaptcha(siteKey);
  const token = await g.execute(siteKey, { action });
  if (!token) throw new CaptchaError(CAPTCHA_NOT_LOADED, false);
  return token;
}

/** The token for `action`, or undefined once the visitor has been told to wait and try again. */
export async function captchaTokenOrSay(action: string): Promise<string | undefined> {
  try {
    return await getCaptchaToken(action);
  } catch (err) {
    await showAlert({
      icon: 'warning',
      title: 'Verification Not Ready',
      text: err instanceof CaptchaError ? err.message : 'Please wait a moment and try again.',
    });
    return undefined;
  }
}
