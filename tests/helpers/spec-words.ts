/**
 * SPEC.md's words, restated here once for the API tests rather than imported from contract/: a
 * change to the words the site says fails the tests that read them.
 */

// Accounts (SPEC.md section 4).
export const REGISTERED = 'Registration successful! Please check your email to verify your account.';
export const LOGIN_SENT = 'Login email sent. Check your inbox.';
export const VERIFIED = 'Email verified successfully.';
export const VERIFY_FAILED = 'Verification failed.';
export const LOGIN_INVALID = 'Your login link is invalid or has expired. Please request a new link and try again.';
export const PROFILE_UPDATED = 'Profile updated successfully!';

// Booking a session (SPEC.md sections 5 and 8).
export const BOOKING_CONFIRMED = 'Booking successful. Check your email for confirmation and details.';
export const BOOKING_FAILED = 'We couldn’t confirm your booking. Please try again or contact support if the issue persists.';
export const COUPON_INVALID = 'Invalid code. Double-check or continue without one.';
export const COUPON_VALID = 'Coupon valid. Click Continue to apply.';
export const PAYMENT_UNSUCCESSFUL = 'Your payment could not be processed. Please check your payment details and try again.';
