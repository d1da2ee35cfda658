/**
 * The video link of an online session or free meeting (issue 35, decision 0044). Today it is her
 * own meeting room (the setting meetingRoomUrl), or null when she set none (the mail then says the
 * link will follow).
 *
 * When her Google Calendar is connected, a booked session's link is the Google Meet link made
 * with its calendar event before the claim (api/agenda/write-back.ts sessionLink); this room is
 * the fallback, and the free meeting's link.
 */
import type { DB } from '../../db/client.ts';
import { readSettings } from './settings.repo.ts';

/** The link an online booking made now carries; null: none yet ("will follow"). */
export async function onlineLink(db: DB): Promise<string | null> {
  const { meetingRoomUrl } = await readSettings(db);
  return meetingRoomUrl === '' ? null : meetingRoomUrl;
}
