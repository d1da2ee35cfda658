/**
 * The free 30-minute online meeting, scheduled (issue 35): the times the home page offers and the
 * words about it. No zod here: the home page's form module reads it on its first tap (decision 0050).
 */

/** How long the free meeting is. */
export const FREE_MEETING_MINUTES = 30;

/** How many times GET /api/publicBookings/times offers at most. */
export const FREE_MEETING_TIMES_MAX = 60;

/** One time offered: the instant, and how it reads on her clocks ("Tuesday, December 1, 9:30 AM PST"). */
export interface FreeMeetingTime {
  startsAt: string;
  label: string;
}

/** GET /api/publicBookings/times. */
export interface FreeMeetingTimesView {
  timeZone: string;
  times: FreeMeetingTime[];
}

/** POST /api/publicBookings with a time: the meeting is booked. */
export const FREE_MEETING_BOOKED = 'Your free meeting is booked. The invitation with the link is on its way to your inbox.';
/** The time was taken (or left her hours) between listing and booking. */
export const FREE_MEETING_TAKEN = 'Sorry, that time was just taken. Please choose another time.';
/** The time is not one she offers (outside her hours, too soon, or not on the half hour). */
export const FREE_MEETING_NOT_OFFERED = 'That time is not offered. Please choose one of the times listed.';

/** The cancel link's page (/meeting-cancel). */
export const FREE_MEETING_CANCELLED = 'Your free meeting is cancelled. The time is free again.';
export const FREE_MEETING_ALREADY_CANCELLED = 'This meeting was already cancelled.';
export const FREE_MEETING_LINK_INVALID = 'This link is not valid. Please use the link from your e-mail as it is.';
export const FREE_MEETING_OVER = 'This meeting has already begun, so it can no longer be cancelled here.';

/** GET /api/publicBookings/meeting?token=: the meeting the cancel link opens. */
export interface FreeMeetingView {
  name: string;
  startsAt: string;
  label: string;
  cancelled: boolean;
  canCancel: boolean;
}

/**
 * An online session or meeting booked while she has no meeting room link set: what its mail and
 * calendar file say instead of the link.
 */
export const ONLINE_LINK_TO_FOLLOW = 'This session is online. The link to join will follow by e-mail before it starts.';
