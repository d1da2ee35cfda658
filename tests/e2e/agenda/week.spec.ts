import { expect } from '@playwright/test';
import { adminTest as test, fitsThePhone, teacherToday } from '../helpers';
import { itemAt } from '../../helpers/guards.ts';

/**
 * Issue 35, her Week on her phone at 390 × 844: she opens Week from Today, goes to a day with a
 * class, her dentist and a gig, sees them in order with the drive between the places and the
 * overlap marked, adds a busy time (typed on her clocks while the phone is in another zone),
 * sees it take its place, and deletes it. Axe clean, nothing wider than the phone.
 */
// The phone is in Kiritimati (UTC+14): her days and times are Los Angeles' all the same.
test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'Pacific/Kiritimati', locale: 'en-US' });

/** The instant of `time` on `day` in Los Angeles, as the API writes it. */
function laInstant(day: string, time: string): string {
  for (const offset of ['-08:00', '-07:00']) {
    const d = new Date(`${day}T${time}:00${offset}`);
    const shown = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(d);
    if (shown === time) return d.toISOString();
  }
  throw new Error(`no instant for ${day} ${time}`);
}

test('she reads her week, sees the overlap, adds a busy time and deletes it', async ({ page }) => {
  test.setTimeout(90_000);
  const run = Date.now().toString(36);
  // A day far enough ahead that no other spec's classes or sessions are on it.
  const day = teacherToday(150 + (parseInt(run.slice(-2), 36) % 100));
  const api = page.request;

  const location = async (name: string, roundTripMiles: number, bufferMinutes: number) => {
    const res = await api.post('/api/admin/locations', { data: { name, roundTripMiles, bufferMinutes } });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { _id: string })._id;
  };
  const oak = await location(`Oak Hall ${run}`, 20, 0);
  const riverside = await location(`Riverside Studio ${run}`, 12, 30);
  const event = await api.post('/api/admin/events', { data: { title: 'Morning Flow', date: day, time: '09:00', location: `Oak Hall ${run}`, minutes: 60 } });
  expect(event.status(), await event.text()).toBe(201);
  const eventId = itemAt(((await event.json()) as { events: { _id: string }[] }).events, 0)._id;
  const busy = await api.post('/api/admin/busy', { data: { start: laInstant(day, '17:00'), end: laInstant(day, '18:15'), title: 'Dentist' } });
  expect(busy.status(), await busy.text()).toBe(201);
  const busyId = ((await busy.json()) as { busy: { id: string } }).busy.id;
  // The gig lands on the dentist: saved all the same, and the answer says what it overlaps.
  const gig = await api.post('/api/admin/gigs', {
    data: { date: day, time: '18:00', className: 'Riverside Flow', locationId: riverside, rateCents: 6000, frequency: 'perClass', paymentMethod: 'cash' },
  });
  expect(gig.status(), await gig.text()).toBe(201);
  const gigAnswer = (await gig.json()) as { ids: string[]; overlaps: { id: string }[] };
  expect(gigAnswer.overlaps.map((o) => o.id)).toEqual([busyId]);

  try {
    // From Today to her Week: seven days from today on her clocks.
    await page.goto('/admin/dashboard');
    await page.getByRole('link', { name: 'Your week' }).click();
    await page.waitForURL('**/admin/week');
    await expect(page.locator(`[data-day="${teacherToday()}"]`)).toBeVisible();
    await expect(page.locator('[data-day]')).toHaveCount(7);

    // The week of that day; next week moves seven days on.
    await page.goto(`/admin/week?from=${day}`);
    const items = page.locator(`[data-day="${day}"] [data-agenda-item]`);
    await expect(items).toHaveCount(3);
    await expect(items.locator('.page-badge')).toHaveText(['Class', 'Busy', 'Gig']);
    await expect(items.locator('strong')).toHaveText(['Morning Flow', 'Dentist', 'Riverside Flow']);
    await expect(items.nth(0)).toContainText(/9:00\sAM–10:00\sAM/);
    await expect(items.nth(1)).toContainText(/5:00\sPM–6:15\sPM/);
    await expect(items.nth(2)).toContainText(/6:00\sPM–7:00\sPM/);
    await expect(items.nth(0).locator('[data-conflict]')).toHaveCount(0);
    await expect(items.nth(1).locator('[data-conflict]')).toHaveText('Overlaps Riverside Flow');
    await expect(items.nth(2).locator('[data-conflict]')).toHaveText('Overlaps Dentist');
    // From Oak Hall (20 mi round trip) to Riverside Studio (12): half of each.
    await expect(items.nth(2)).toContainText('16 mi from the place before');
    await expect(items.nth(2)).toContainText(`Riverside Studio ${run}`);
    await fitsThePhone(page);

    // A busy time typed on her clocks: the phone's zone is a day ahead of hers.
    const form = page.getByRole('form', { name: 'Add a busy time' });
    await expect(form.getByLabel('Day')).toHaveValue(day);
    await form.getByLabel('From').fill('12:00');
    await form.getByLabel('To').fill('12:30');
    await form.getByLabel('What (optional)').fill('Lunch with Mum');
    await form.getByRole('button', { name: 'Add busy time' }).click();
    await expect(page.locator('.week-said')).toHaveText('Busy time saved.');
    await expect(items.locator('strong')).toHaveText(['Morning Flow', 'Lunch with Mum', 'Dentist', 'Riverside Flow']);
    await expect(items.nth(1)).toContainText(/12:00\sPM–12:30\sPM/);
    const agenda = (await (await api.get(`/api/admin/agenda?from=${day}&to=${day}`)).json()) as { title: string; start: string; end: string }[];
    expect(agenda.find((i) => i.title === 'Lunch with Mum')).toMatchObject({ start: laInstant(day, '12:00'), end: laInstant(day, '12:30') });
    await fitsThePhone(page);

    // Her own busy times have a Delete button.
    await expect(items.nth(0).getByRole('button', { name: /Delete/ })).toHaveCount(0);
    await items.nth(1).getByRole('button', { name: 'Delete Lunch with Mum' }).click();
    const dialog = page.getByRole('dialog', { name: 'Are you sure?' });
    await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(page.locator('.week-said')).toHaveText('Busy time deleted.');
    await expect(items.locator('strong')).toHaveText(['Morning Flow', 'Dentist', 'Riverside Flow']);

    // A busy time past midnight is on both its days: on the second it says when it began.
    const nextDay = teacherTodayFrom(day, 1);
    const night = await api.post('/api/admin/busy', { data: { start: laInstant(day, '22:00'), end: laInstant(nextDay, '07:00'), title: 'Night flight' } });
    expect(night.status(), await night.text()).toBe(201);
    const nightId = ((await night.json()) as { busy: { id: string } }).busy.id;
    await page.reload();
    await expect(items.last().locator('strong')).toHaveText('Night flight');
    await expect(items.last()).toContainText(/10:00\sPM–.*7:00\sAM/);
    const after = page.locator(`[data-day="${nextDay}"] [data-agenda-item]`);
    await expect(after.first().locator('strong')).toHaveText('Night flight');
    await expect(after.first().locator('.week-time')).toHaveText(/ · 10:00\sPM–7:00\sAM$/);
    await api.delete(`/api/admin/busy/${nightId}`);

    await page.getByRole('button', { name: 'Next week' }).click();
    await expect(page.locator('[data-day]').first()).toHaveAttribute('data-day', teacherTodayFrom(day, 7));
    await expect(page).toHaveURL(new RegExp(`from=${teacherTodayFrom(day, 7)}`));
  } finally {
    await api.delete(`/api/admin/busy/${busyId}`);
    for (const id of gigAnswer.ids) await api.delete(`/api/admin/gigs/${id}`);
    await api.delete('/api/events/bulk', { data: { eventIds: [eventId] } });
    for (const id of [oak, riverside]) await api.delete(`/api/admin/locations/${id}`);
  }
});

/** `day` plus `n` days (YYYY-MM-DD). */
function teacherTodayFrom(day: string, n: number): string {
  return new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
