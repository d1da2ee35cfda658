import { expect, test } from '@playwright/test';
import { axeClean, closeAlert, expectAlert, fillMeetingRequest, fitsThePhone, loginAdmin, mailsTo, uniqueEmail, visitorHeaders } from '../helpers';
import { itemAt } from '../../helpers/guards.ts';

/**
 * Issue 35: the free 30-minute online meeting, scheduled, on a phone. She sets her meeting room
 * link in Settings; a visitor picks one of her free times on the home page's form and books it,
 * the invitation carries the link; its cancel link frees the time again.
 */
// An address of its own: her login and the visitor's request count against no other spec's limits.
test.use({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: visitorHeaders() });

const ROOM = `https://meet.jit.si/yoga-${Date.now().toString(36)}`;

test('a visitor books a free time on the home page and the invitation carries her meeting room link', async ({ page }) => {
  await loginAdmin(page);
  await page.goto('/admin/settings');
  const room = page.getByLabel('Your meeting room link (Zoom, Jitsi, any URL)');
  await room.fill(ROOM);
  // Her free meeting hours: weekends only, ten to noon.
  const hours = page.locator('[data-meeting-hours]');
  for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) await hours.getByRole('checkbox', { name: day, exact: true }).uncheck();
  await hours.getByRole('checkbox', { name: 'Sat', exact: true }).check();
  await hours.getByRole('checkbox', { name: 'Sun', exact: true }).check();
  await hours.getByLabel('From').fill('10:00');
  await hours.getByLabel('Until').fill('12:00');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await fitsThePhone(page);

  const email = uniqueEmail('meeting');
  await page.goto('/#book');
  const form = page.getByRole('form', { name: 'Request a free meeting' });
  await fillMeetingRequest(form, email);
  const time = form.getByLabel('Meeting time (optional)');
  // Her free times arrive once the form has come alive.
  const first = time.locator('option').nth(1);
  await expect(first).toBeAttached();
  const label = (await first.textContent())!;
  expect(label).toMatch(/^(Saturday|Sunday), .*, (10|11):(00|30) AM P[SD]T$/);
  await time.selectOption({ label });
  await fitsThePhone(page);

  await form.getByRole('button', { name: 'Request my free meeting' }).click();
  await expectAlert(page, 'Your free meeting is booked', label);
  await axeClean(page);
  await closeAlert(page, 'Your free meeting is booked');
  await expect(form.getByLabel('Name')).toHaveValue('');
  // Booked, the time is offered no more.
  await expect(time.locator('option', { hasText: label })).toHaveCount(0);

  const invitation = itemAt(await mailsTo(page.request, email), 0);
  expect(invitation.subject).toMatch(/^Your free meeting on /);
  expect(invitation.text).toContain(`Join here: ${ROOM}`);
  expect(invitation.links).toContain(ROOM);
  expect(invitation.attachments.map((a) => a.filename)).toContain('meeting.ics');
  // Her room is only ever in the invitation: no public page or answer carries it.
  for (const path of ['/', '/yoga', '/calendar', '/api/publicBookings/times']) expect(await (await page.request.get(path)).text(), path).not.toContain(ROOM);

  // The cancel link: the page changes nothing until the press, which frees the time.
  const cancel = new URL(invitation.links.find((l) => l.includes('/meeting-cancel?token='))!);
  await page.goto(cancel.pathname + cancel.search);
  await expect(page.getByRole('status')).toContainText(`Ana Lima, your free meeting is booked for ${label}.`);
  await fitsThePhone(page);
  await page.getByRole('button', { name: 'Cancel my meeting' }).click();
  await expect(page.getByRole('status')).toHaveText('Your free meeting is cancelled. The time is free again.');
  await axeClean(page);
});
