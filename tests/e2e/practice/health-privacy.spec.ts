import { expect, test } from '@playwright/test';
import {
  answerIntake,
  closeAlert,
  drawSignature,
  expectAlert,
  fitsThePhone,
  loginAdmin,
  logInOnTheForm,
  registerAndVerify,
  uniqueEmail,
  visitorHeaders,
} from '../helpers';

/**
 * Issue 48 (decision 0058) at 390×844, axe clean: the home page's footer links the privacy policy
 * (its consumer health data section) and the accessibility statement, and both open; the intake
 * asks the consent to collect with her signed consent and, apart, the consent to share, unticked
 * until the client ticks it; the teacher reads on the client's record whether it was given and
 * when; on Settings she chooses what her Google Calendar's session titles say.
 */

test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'America/Los_Angeles', locale: 'en-US' });

const PORT = Number(process.env.E2E_PORT ?? 4399);
const SITE = `http://localhost:${PORT}`;

test('the home page’s footer links the privacy policy and the accessibility statement; both open and fit the phone', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('navigation', { name: 'Footer' });
  await expect(footer.getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', '/privacy');
  await expect(footer.getByRole('link', { name: 'Accessibility' })).toHaveAttribute('href', '/accessibility');

  await footer.getByRole('link', { name: 'Privacy' }).click();
  await page.waitForURL('**/privacy');
  await expect(page.getByRole('heading', { name: 'Your data and your privacy', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Consumer health data', level: 2 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Who receives it', level: 3 })).toBeVisible();
  await fitsThePhone(page);

  await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Accessibility' }).click();
  await page.waitForURL('**/accessibility');
  await expect(page.getByRole('heading', { name: 'Accessibility statement', level: 1 })).toBeVisible();
  await expect(page.getByText('WCAG) 2.1 at level AA')).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'contact page' })).toHaveAttribute('href', '/contact');
  await fitsThePhone(page);
});

test('the intake asks the consent to collect and, apart, the consent to share, unticked; she sees on the record whether it was given', async ({ browser }) => {
  test.slow();
  const context = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const page = await context.newPage();
  const userId = await registerAndVerify(page, 'Hana', 'Consent', uniqueEmail('consent'));
  await page.goto(`/user/${userId}/intake`);
  await expect(page.getByRole('heading', { name: 'New Client Form' })).toBeVisible();

  // Two consents: to collect, signed with her consent; to share, a box of its own, not ticked.
  await expect(page.getByRole('group', { name: /^Consent/ }).first()).toContainText('Consent to collect your health information:');
  const share = page.getByRole('group', { name: 'Consent to share (optional)' });
  await expect(share).toContainText('shares your health information with no one');
  const box = share.getByRole('checkbox', { name: 'I allow my teacher to discuss my case with her supervisor' });
  await expect(box).not.toBeChecked();
  await fitsThePhone(page);

  await answerIntake(page, { health: 'none', injuries: 'none', hope: 'Steadier balance', emergency: 'Kai Consent 555-0101' });
  await box.check();
  await drawSignature(page, { autoSave: true });
  await page.getByRole('button', { name: 'Submit the form' }).click();
  await expectAlert(page, 'Intake form saved');
  await closeAlert(page, 'Intake form saved');
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'I allow my teacher to discuss my case with her supervisor' })).toBeChecked();

  // Her phone: the client's record says both were given, and when, in words.
  const her = await browser.newContext({ extraHTTPHeaders: visitorHeaders(), viewport: { width: 390, height: 844 } });
  const teacher = await her.newPage();
  await loginAdmin(teacher);
  await teacher.goto(`/admin/client?id=${userId}`);
  await expect(teacher.getByRole('heading', { name: 'Hana Consent' })).toBeVisible();
  await expect(teacher.locator('[data-consent="collect"]')).toHaveText(/^Given \w{3}, \w{3} \d{1,2} · \d{1,2}:\d{2}\s(AM|PM)$/);
  await expect(teacher.locator('[data-consent="share"]')).toHaveText(/^Given \w{3}, \w{3} \d{1,2} · /);
  await fitsThePhone(teacher);

  // The client takes it back: unticked and saved, her record says withdrawn.
  await page.getByRole('checkbox', { name: 'I allow my teacher to discuss my case with her supervisor' }).uncheck();
  await page.getByRole('button', { name: 'Save my updated answers' }).click();
  await expectAlert(page, 'Intake form saved');
  await closeAlert(page, 'Intake form saved');
  await teacher.reload();
  await expect(teacher.locator('[data-consent="share"]')).toHaveText(/^Withdrawn \w{3}, \w{3} \d{1,2} · /);
  await her.close();
  await context.close();
});

test('on Settings she chooses what her Google Calendar’s session titles say', async ({ browser }) => {
  // Her side on SITE_URL's origin: Google's consent sends her back there (google-calendar.spec.ts).
  const her = await browser.newContext({ baseURL: SITE, extraHTTPHeaders: visitorHeaders(), viewport: { width: 390, height: 844 } });
  const admin = await her.newPage();
  await admin.request.post('/dev/google/emulator/reset');
  await logInOnTheForm(admin, SITE);
  await admin.goto('/admin/settings');
  const section = admin.locator('#google-calendar');
  await section.getByRole('link', { name: 'Connect Google Calendar' }).click();
  await admin.waitForURL('**/admin/settings?calendar=connected*');
  const titles = section.getByLabel('Your sessions’ titles there');
  await expect(titles).toHaveValue('initial');
  await expect(section).toContainText('never the kind of session');
  await titles.selectOption('none');
  await section.getByRole('button', { name: 'Save calendars' }).click();
  await expect(section.getByRole('status')).toHaveText(/^Calendar choices saved\. Titles saved/);
  expect(((await (await admin.request.get('/api/admin/settings')).json()) as { settings: { calendarTitle: string } }).settings.calendarTitle).toBe('none');
  await fitsThePhone(admin);

  // Back as it was: the default titles, and disconnected.
  await titles.selectOption('initial');
  await section.getByRole('button', { name: 'Save calendars' }).click();
  await expect(section.getByRole('status')).toHaveText(/Titles saved/);
  await section.getByRole('button', { name: 'Disconnect' }).click();
  await expect(section.getByRole('status')).toHaveText('Google Calendar disconnected.');
  await her.close();
});
