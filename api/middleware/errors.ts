import type { ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';

/**
 * Every failure leaves as JSON `{message}`. Refusals we raise (HTTPException) keep their
 * status and words; anything unexpected is logged here and answered with a plain 500 that
 * never carries a stack trace, SQL or a driver message.
 */
export const onError: ErrorHandler = (err, c) => {
  if (err instanceof HTTPException) {
    const status = err.status;
    const message = err.message || (status === 413 ? 'Request body is too large' : 'Request refused');
    return c.json({ message }, status);
  }
  console.error(`[error] ${c.req.method} ${c.req.path}:`, err);
  return c.json({ message: 'Something went wrong on our side. Please try again later.' }, 500);
};

export const onNotFound: NotFoundHandler = (c) => c.json({ message: 'Not found' }, 404);
