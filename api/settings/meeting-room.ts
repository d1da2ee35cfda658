/**
 * The video link of an online session or free meeting (issue 35, decision 0044). Today it is her
 * own meeting room (the setting meetingRoomUrl), or null when she set none (the mail then says the
 * link will follow).
 *
 * The seam for Google Meet: once her calendar is connected, the link comes from the calendar
 * event's conferenceData, made by the write-back queue after the commit. That engineer replaces
 * this function's body (or calls it as the fallback when not connected); every booking path
 * (claimSlot, moveBooking, the free meeting) asks here and nowhere else.
 */
import type { DB } from '../../db/client.ts';
import { readSettings } from './settings.repo.ts';

/** The link an online booking made now carries; null: none yet ("will follow"). */
export async function onlineLink(db: DB): Promise<string | null> {
  const { meetingRoomUrl } = await readSettings(db);
  return meetingRoomUrl === '' ? null : meetingRoomUrl;
}
