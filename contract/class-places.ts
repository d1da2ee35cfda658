/**
 * Students manage their class places (issue 15): giving a place back by the signed link in
 * their mail or from their dashboard, the waitlist of a full class, and the views the pages
 * read. Free of zod, so the calendar's island can take its words without the schema library
 * (its JavaScript budget); the link's schema is `linkToken` in contract/signups.ts.
 */

export const PLACE_GIVEN_BACK = 'Your place is given back. Thank you for letting me know!';
export const PLACE_ALREADY_GIVEN_BACK = 'This place has been given back already: nothing more to do.';
/** The rule (decision 0017): a place can be given back online until the class starts. */
export const CLASS_STARTED = "This class has started, so its place can't be given back online any more. Please write to me through the contact page.";
export const LINK_INVALID = 'This link is not valid. Please use the link from your e-mail as it is.';
export const SIGNUP_NOT_YOURS = 'This class place is not on your account (any more): it may have been given back already.';
export const WAITLIST_JOINED = "You're on the waitlist";
/** Has 'already': the sign-up island shows it as "Already Signed Up". */
export const WAITLIST_ALREADY = 'You are already on the waitlist for this class.';
export const WAITLIST_LEFT = 'You have left the waitlist. Thank you for letting me know!';
export const WAITLIST_ALREADY_LEFT = 'You are not on this waitlist any more: nothing more to do.';
/** Next to SPEC.md's "Class Full" on the calendar. */
export const JOIN_WAITLIST = 'Join the waitlist';

/** The class a place or a waitlist entry is for. */
export interface ClassOfPlaceView {
  classTitle: string;
  date: string;
  time: string;
  /** ISO instant the class starts. */
  startsAt: string;
  location: string;
}

/** GET /api/class-places?token=, GET /api/user/{id}/classes: one sign-up. */
export interface ClassPlaceView extends ClassOfPlaceView {
  _id: string;
  name: string;
  /** False once the class has started (CLASS_STARTED). */
  canGiveBack: boolean;
  /** A paid place (issue 34): what giving it back now returns, said before the student confirms. */
  refundNote?: string;
}

/** GET /api/waitlist/entry?token=: one's place in line. */
export interface WaitlistEntryView extends ClassOfPlaceView {
  _id: string;
  name: string;
  /** 1 = next to get a freed place. */
  position: number;
}

/** POST /api/waitlist: on the waitlist, or signed up at once when a place was free after all. */
export interface WaitlistJoinedView {
  message: string;
  _id: string;
  /** 'waiting' with its position, or 'signedUp'. */
  status: 'waiting' | 'signedUp';
  position?: number;
}

/** GET /api/admin/waitlist: every upcoming class's waitlist, in line order. */
export interface WaitlistRowView {
  _id: string;
  eventId: string;
  classTitle: string;
  date: string;
  time: string;
  position: number;
  name: string;
  email: string;
  phone: string;
}
