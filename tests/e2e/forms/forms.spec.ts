import { expect, test, type Page } from '@playwright/test';
import { closeAlert, drawSignature, expectAlert, fillMeetingRequest, heldResponse, loginAdmin, mailsTo, teacherToday, uniqueEmail } from '../helpers';
import { itemAt, mustFind } from '../../helpers/guards.ts';

test.describe('home page: free 30-minute meeting request', () => {
  test('sends the request; the teacher and the visitor get mails; the form resets', async ({ page }) => {
    const email = uniqueEmail('visitor');
    await page.goto('/#book');
    const form = page.getByRole('form', { name: 'Request a free meeting' });
    await fillMeetingRequest(form, email);
    await form.getByLabel('Message (optional)').fill('Lower back pain <b>since</b> spring');
    await form.getByRole('button', { name: 'Request my free meeting' }).click();
    await expectAlert(page, 'Success!', 'Your form has been submitted successfully.');
    await closeAlert(page, 'Success!');
    await expect(form.getByLabel('Name')).toHaveValue('');
    const mine = await mailsTo(page.request, email);
    expect(itemAt(mine, 0).text).toBeTruthy();
    const teacher = await mailsTo(page.request, 'teacher@example.com');
    expect(teacher.some((m) => m.text.includes(email) && m.text.includes('Lower back pain <b>since</b> spring'))).toBe(true);
    // Visitor text never becomes markup in the mail.
    expect(mustFind(teacher, (m) => m.text.includes(email)).html).not.toContain('<b>since</b>');
  });

  test("a finger landing on the name field fetches the form's code at once, no framework; the form comes alive when it is used", async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => void (r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname)));
    await page.goto('/#book', { waitUntil: 'load' });
    const form = page.getByRole('form', { name: 'Request a free meeting' });
    const time = form.getByLabel('Meeting time (optional)');
    // Issue 36, decision 0050: the pointer's landing starts the download of the form's own module,
    // before the focus or the click; a finger that then scrolls away runs nothing.
    const fetched = page.waitForRequest((r) => /\/book-request-form\.[\w-]+\.js$/.test(new URL(r.url()).pathname));
    await form.getByLabel('Name').dispatchEvent('pointerdown', { pointerType: 'touch', isPrimary: true });
    await fetched;
    await expect(time.locator('option').first()).toHaveText('Loading free times…');
    await form.getByLabel('Name').fill('Quick Finger');
    // Alive: her free times are asked for and listed.
    await expect(time.locator('option').first()).toHaveText(/: write to me$/);
    // The form's first tap brings its own module and no framework: no React, no zod.
    expect(scripts.filter((p) => /\/(client|forms)\.[\w-]+\.js$/.test(p))).toEqual([]);
  });

  test('a press before the form has its code is held and answered once the code is there', async ({ page }) => {
    const code = heldResponse();
    await page.route(/\/book-request-form\.[\w-]+\.js$/, async (r) => {
      await code.until;
      await r.continue();
    });
    await page.goto('/#book', { waitUntil: 'load' });
    const form = page.getByRole('form', { name: 'Request a free meeting' });
    await form.getByRole('button', { name: 'Request my free meeting' }).click();
    code.release();
    // Not the browser's own POST (the page stays), but the form's check.
    await expect(form.getByText('Name is required')).toBeVisible();
    await expect(form.getByLabel('Name')).toBeFocused();
    await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(new URL(page.url()).pathname).toBe('/');
  });

  test("the form's code that can't be fetched (offline) says the form's failure line; the next press tries again", async ({ page }) => {
    await page.route(/\/book-request-form\.[\w-]+\.js$/, (r) => r.abort('internetdisconnected'));
    await page.goto('/#book', { waitUntil: 'load' });
    const form = page.getByRole('form', { name: 'Request a free meeting' });
    await form.getByRole('button', { name: 'Request my free meeting' }).click();
    await expectAlert(page, 'Oops! Something went wrong!', "We couldn't submit your form. Please try again later.");
    await closeAlert(page, 'Oops! Something went wrong!');
    await page.unroute(/\/book-request-form\.[\w-]+\.js$/);
    await form.getByRole('button', { name: 'Request my free meeting' }).click();
    await expect(form.getByText('Name is required')).toBeVisible();
  });

  test('names the fields that are missing and sends nothing', async ({ page }) => {
    let posted = false;
    await page.route('**/api/publicBookings/request', (r) => {
      posted = true;
      return r.continue();
    });
    await page.goto('/#book');
    const form = page.getByRole('form', { name: 'Request a free meeting' });
    await form.getByRole('button', { name: 'Request my free meeting' }).click();
    await expect(form.getByText('Name is required')).toBeVisible();
    await expect(form.getByText('Please choose a session type.')).toBeVisible();
    expect(posted).toBe(false);
  });

  test('without a human-check token it warns and sends nothing', async ({ page }) => {
    await page.route('**/api/config/public', (r) => r.fulfill({ status: 500, body: '{}' }));
    await page.goto('/#book');
    await page.evaluate(() => localStorage.removeItem('captchaToken'));
    const form = page.getByRole('form', { name: 'Request a free meeting' });
    await form.getByLabel('Name').fill('Ana');
    await form.getByLabel('Email').fill('ana@example.com');
    await form.getByLabel('Phone').fill('503-555-0101');
    await form.getByLabel('Session type').selectOption('private yoga');
    await form.getByRole('button', { name: 'Request my free meeting' }).click();
    await expectAlert(page, 'Verification Failed', "We couldn't verify that you're human. Please try again.");
  });

  test("the server's word on a field is shown beside it; a time taken meanwhile is said and the times listed again", async ({ page }) => {
    const answers = [
      { status: 400, body: { message: 'email: Please use a real address', issues: [{ path: 'email', message: 'Please use a real address' }] } },
      { status: 409, body: { message: 'Sorry, that time was just taken. Please choose another time.' } },
    ];
    let listed = 0;
    await page.route('**/api/publicBookings/times', (r) => {
      listed++;
      return r.continue();
    });
    await page.route('**/api/publicBookings/request', (r) => {
      const { status, body } = answers.shift()!;
      return r.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
    });
    await page.goto('/#book');
    const form = page.getByRole('form', { name: 'Request a free meeting' });
    await fillMeetingRequest(form, uniqueEmail('issues'));
    await form.getByRole('button', { name: 'Request my free meeting' }).click();
    await expect(form.getByText('Please use a real address')).toBeVisible();
    await expect(form.getByLabel('Email')).toBeFocused();
    await expect(form.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(listed).toBe(1);
    await form.getByRole('button', { name: 'Request my free meeting' }).click();
    await expectAlert(page, 'That time was just taken', 'Sorry, that time was just taken. Please choose another time.');
    expect(listed).toBe(2);
    // The browser's check passed this time: the server's line is gone with it.
    await expect(form.getByText('Please use a real address')).toHaveCount(0);
    await expect(form.getByLabel('Email')).not.toHaveAttribute('aria-invalid');
  });

  test("a server failure shows the spec's apology", async ({ page }) => {
    await page.route('**/api/publicBookings/request', (r) => r.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"x"}' }));
    await page.goto('/#book');
    const form = page.getByRole('form', { name: 'Request a free meeting' });
    await form.getByLabel('Name').fill('Ana');
    await form.getByLabel('Email').fill('ana@example.com');
    await form.getByLabel('Phone').fill('503-555-0101');
    await form.getByLabel('Session type').selectOption('chocolates');
    await form.getByRole('button', { name: 'Request my free meeting' }).click();
    await expectAlert(page, 'Oops! Something went wrong!', "We couldn't submit your form. Please try again later.");
  });
});

test.describe('contact form', () => {
  test('sends a message to the teacher and confirms to the visitor', async ({ page }) => {
    const email = uniqueEmail('contact');
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByLabel('Name').fill('Bo Kim');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Message').fill('Do you run tastings for 15 people?');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expectAlert(page, 'Message Sent!');
    await closeAlert(page, 'Message Sent!');
    await expect(form.getByLabel('Message')).toHaveValue('');
    await mailsTo(page.request, email);
    const teacher = await mailsTo(page.request, 'teacher@example.com');
    expect(teacher.some((m) => m.text.includes('Do you run tastings for 15 people?'))).toBe(true);
  });

  test('keeps what was typed before the form came to life', async ({ page }) => {
    await page.goto('/contact');
    // The island hydrates on first interaction; fill() types at once.
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByLabel('Name').fill('Quick Typist');
    await form.getByLabel('Email').fill(uniqueEmail('quick'));
    await form.getByLabel('Message').fill('Typed fast');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expectAlert(page, 'Message Sent!');
  });

  test('without the human check it says Verification Not Ready', async ({ page }) => {
    await page.route('**/api/config/public', (r) => r.fulfill({ status: 500, body: '{}' }));
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByLabel('Name').fill('Bo');
    await form.getByLabel('Email').fill('bo@example.com');
    await form.getByLabel('Message').fill('Hello');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expectAlert(page, 'Verification Not Ready');
  });

  test("shows the server's message, or the default when the network fails", async ({ page }) => {
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByLabel('Name').fill('Bo');
    await form.getByLabel('Email').fill('bo@example.com');
    await form.getByLabel('Message').fill('Hello');
    await page.route('**/api/contact', (r) =>
      r.fulfill({ status: 429, contentType: 'application/json', body: '{"message":"Too many requests. Please wait a moment and try again."}' }),
    );
    await form.getByRole('button', { name: 'Send message' }).click();
    await expectAlert(page, 'Message Not Sent', 'Too many requests. Please wait a moment and try again.');
    await closeAlert(page, 'Message Not Sent');
    await page.unroute('**/api/contact');
    await page.route('**/api/contact', (r) => r.abort());
    await form.getByRole('button', { name: 'Send message' }).click();
    await expectAlert(page, 'Message Not Sent', 'Failed to send message. Please try again later.');
  });
});

test.describe('newsletter', () => {
  test('subscribes, clears the field, and says so when already subscribed', async ({ page }) => {
    const email = uniqueEmail('news');
    await page.goto('/about');
    const footer = page.getByRole('contentinfo');
    const input = footer.getByLabel('Email address');
    await input.fill(email);
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expectAlert(page, 'Subscribed!', 'Thanks for signing up!');
    await closeAlert(page, 'Subscribed!');
    await expect(input).toHaveValue('');
    await input.fill(`  ${email.toUpperCase()} `);
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expectAlert(page, 'Already Subscribed', 'This email is already on our list.');
    await closeAlert(page, 'Already Subscribed');
    await expect(input).toHaveValue('');

    // The welcome mail carries a signed unsubscribe link and the one-click headers.
    const welcome = itemAt(await mailsTo(page.request, email), 0);
    expect(welcome.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const link = welcome.links.find((l) => l.includes('/unsubscribe?token='))!;
    expect(link).toBeTruthy();
    await page.goto(new URL(link).pathname + new URL(link).search);
    await expect(page.getByRole('status')).toHaveText("You’ve been unsubscribed successfully. I'm sorry to see you go!");
    // Gone from the list: subscribing again works.
    await page.goto('/about');
    await footer.getByLabel('Email address').fill(email);
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expectAlert(page, 'Subscribed!');
  });

  test('warns about an invalid address, ignores an empty one, and reads Submitting... while sending', async ({ page }) => {
    await page.goto('/about');
    const footer = page.getByRole('contentinfo');
    let posts = 0;
    const hold = heldResponse();
    await page.route('**/api/subscribers/subscribe', async (r) => {
      posts++;
      await hold.until;
      await r.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"x"}' });
    });
    await footer.getByLabel('Email address').fill('   ');
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await footer.getByLabel('Email address').fill('not an@email');
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expectAlert(page, 'Invalid Email', 'Please enter a valid email address.');
    await closeAlert(page, 'Invalid Email');
    expect(posts).toBe(0);
    await footer.getByLabel('Email address').fill('ok@example.com');
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(footer.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
    hold.release();
    await expectAlert(page, 'Oops!', "We couldn't process your subscription.");
  });

  test('the unsubscribe page without an e-mail says the request is invalid', async ({ page }) => {
    await page.goto('/unsubscribe');
    await expect(page.getByRole('status')).toHaveText('Invalid request. No email provided.');
    await page.goto('/unsubscribe?email=nobody%40example.com');
    await expect(page.getByRole('status')).toHaveText("You’ve been unsubscribed successfully. I'm sorry to see you go!");
  });
});

/** Opens /calendar once it has settled on the teacher's today (the island learns the zone from the API). */
async function openCalendar(page: Page) {
  await page.goto('/calendar');
  await expect(page.locator(`.calendar-day.today[data-date="${teacherToday(0)}"]`)).toHaveCount(1);
}

test.describe('calendar and class sign-up', () => {
  test('the grid has 42 days from a Sunday, past days disabled, month navigation', async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/events') asked.push(new URL(r.url()).search);
    });
    await openCalendar(page);
    const cells = page.locator('.calendar-day');
    await expect(cells).toHaveCount(42);
    const first = await cells.first().getAttribute('data-date');
    const last = await cells.last().getAttribute('data-date');
    // Only the shown grid's classes are loaded, not the whole year.
    await expect.poll(() => asked).toContain(`?from=${first}&to=${last}`);
    expect(asked.every((q) => /^\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/.test(q))).toBe(true);
    expect(new Date(`${first}T12:00:00Z`).getUTCDay()).toBe(0);
    const today = teacherToday(0);
    for (const cell of await cells.all()) {
      const date = (await cell.getAttribute('data-date'))!;
      if (date < today) await expect(cell).toBeDisabled();
      else await expect(cell).toBeEnabled();
    }
    const title = await page.locator('.calendar-head h2').textContent();
    await page.getByRole('button', { name: 'Next month' }).click();
    await expect(page.locator('.calendar-head h2')).not.toHaveText(title!);
    await expect(page.locator('.calendar-day').first()).toBeEnabled();
    const nextFirst = await cells.first().getAttribute('data-date');
    await expect.poll(() => asked.some((q) => q.startsWith(`?from=${nextFirst}&`))).toBe(true);
    // Back again: that month is already loaded, no second request for it.
    const before = asked.length;
    await page.getByRole('button', { name: 'Previous month' }).click();
    await expect(page.locator('.calendar-head h2')).toHaveText(title!);
    expect(asked.length).toBe(before);
  });

  test.describe('for a visitor in another time zone', () => {
    // UTC+14: for 22 hours of every day its date is a day ahead of the teacher's (America/Los_Angeles).
    test.use({ timezoneId: 'Pacific/Kiritimati' });

    test("the teacher's today is today: selected, enabled, and its classes shown", async ({ page }) => {
      await loginAdmin(page);
      const today = teacherToday(0);
      const add = await page.request.post('/api/admin/events', {
        data: { title: 'Evening Stillness', date: today, time: '23:58', location: 'Studio', signUpLink: '', isExternal: false, repeat: 'none', capacity: 12 },
      });
      expect(add.status()).toBe(201);
      await openCalendar(page);
      const cell = page.locator(`.calendar-day[data-date="${today}"]`).first();
      await expect(cell).toBeEnabled();
      await expect(cell).toHaveClass(/selected/);
      await expect(page.locator('.event').filter({ hasText: 'Evening Stillness' })).toBeVisible();
    });
  });

  test('a class links to sign-up selection with title, date and location URL-encoded; full, past and outside classes behave', async ({ page }) => {
    await loginAdmin(page);
    const tomorrow = teacherToday(1);
    const today = teacherToday(0);
    const add = (event: object) =>
      page.request.post('/api/admin/events', {
        data: { location: 'Studio & Park', signUpLink: '', isExternal: false, repeat: 'none', capacity: 12, ...event },
      });
    expect((await add({ title: 'Full Flow & Rest', date: tomorrow, time: '07:00', capacity: 1 })).status()).toBe(201);
    expect((await add({ title: 'Partner Retreat', date: tomorrow, time: '08:00', isExternal: true, signUpLink: 'https://example.org/retreat' })).status()).toBe(
      201,
    );
    expect((await add({ title: 'Dawn Breath', date: today, time: '00:00' })).status()).toBe(201);
    expect((await add({ title: 'Open Flow', date: tomorrow, time: '09:30' })).status()).toBe(201);
    // Fill the one place of "Full Flow & Rest".
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const signup = await page.request.post('/api/signup', {
      data: {
        name: 'First One',
        email: uniqueEmail('first'),
        phone: '503-555-0199',
        classTitle: 'Full Flow & Rest',
        date: tomorrow,
        waiver: true,
        signature: png,
        recaptchaToken: 'dev:signup_form_submit',
      },
    });
    expect(signup.status()).toBe(201);

    await openCalendar(page);
    // Tomorrow may be in next month's grid.
    if ((await page.locator(`.calendar-day[data-date="${tomorrow}"]`).count()) === 0 || tomorrow.slice(5, 7) !== today.slice(5, 7)) {
      if (!(await page.locator(`.calendar-day[data-date="${tomorrow}"]:not(.outside)`).count())) await page.getByRole('button', { name: 'Next month' }).click();
    }
    await page.locator(`.calendar-day[data-date="${tomorrow}"]`).first().click();
    const item = (title: string) => page.locator('.event').filter({ hasText: title });
    await expect(item('Full Flow & Rest').getByRole('button', { name: 'Class Full' })).toBeDisabled();
    const outside = item('Partner Retreat').getByRole('link', { name: /Sign Up/ });
    await expect(outside).toHaveAttribute('href', 'https://example.org/retreat');
    await expect(outside).toHaveAttribute('target', '_blank');
    const open = item('Open Flow').getByRole('link', { name: /Sign Up/ });
    await expect(open).toHaveAttribute('href', `/signup-selection?title=Open%20Flow&date=${tomorrow}&location=Studio%20%26%20Park`);
    await expect(item('Open Flow').getByRole('link', { name: 'Class descriptions' })).toHaveAttribute('href', '/about?section=classDescriptions');

    await openCalendar(page);
    await page.locator(`.calendar-day[data-date="${today}"]`).first().click();
    await expect(item('Dawn Breath').getByRole('button', { name: 'Sign Up' })).toBeDisabled();
  });

  test('a returning student for a class that is gone is told so, not that the e-mail is unknown', async ({ page }) => {
    await page.goto(`/signup-selection?title=${encodeURIComponent('No Such Class')}&date=${teacherToday(5)}&location=Nowhere`);
    await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('lost'));
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expectAlert(page, 'Sign-Up Failed', "We couldn't find this class.");
    await expect(page.getByRole('dialog', { name: 'Student Not Found' })).toHaveCount(0);
  });

  test('a new student signs up with the waiver and a drawn signature, then returns by e-mail', async ({ page }) => {
    await loginAdmin(page);
    const date = teacherToday(3);
    const later = teacherToday(10);
    for (const d of [date, later]) {
      const r = await page.request.post('/api/admin/events', {
        data: {
          title: 'Gentle Flow & Friends',
          date: d,
          time: '18:00',
          location: 'Alder St & 5th',
          signUpLink: '',
          isExternal: false,
          repeat: 'none',
          capacity: 12,
        },
      });
      expect(r.status()).toBe(201);
    }
    const email = uniqueEmail('student');

    await page.goto(`/signup-selection?title=${encodeURIComponent('Gentle Flow & Friends')}&date=${date}&location=${encodeURIComponent('Alder St & 5th')}`);
    await expect(page.getByRole('heading', { name: 'Gentle Flow & Friends' })).toBeVisible();
    // An unknown returning student is told to register as a new student.
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expectAlert(page, 'Student Not Found', "email doesn't exist");
    await closeAlert(page, 'Student Not Found');
    await page.getByLabel('Email', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expectAlert(page, 'Email Required', 'Please enter your email address.');
    await closeAlert(page, 'Email Required');

    const newStudent = page.getByRole('link', { name: "I'm a new student" });
    await expect(newStudent).toHaveAttribute('href', `/signup?date=${date}&title=Gentle%20Flow%20%26%20Friends&location=Alder%20St%20%26%205th`);
    await newStudent.click();
    await expect(page.getByLabel('Class', { exact: true })).toHaveValue('Gentle Flow & Friends');
    await expect(page.getByLabel('Date', { exact: true })).toHaveValue(date);
    await page.getByLabel('Full name', { exact: true }).fill('Cy Park');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Phone', { exact: true }).fill('503-555-0123');
    await page.getByLabel('I have read and accept the liability waiver.').check();
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expectAlert(page, 'Signature Required', 'Please sign your name and save your signature before submitting the form.');
    await closeAlert(page, 'Signature Required');

    const canvas = page.locator('canvas');
    await expect(canvas).toHaveAttribute('width', '500');
    await expect(canvas).toHaveAttribute('height', '200');
    await drawSignature(page);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expectAlert(page, 'Sign up successful');
    await closeAlert(page, 'Sign up successful');
    await page.waitForURL('**/calendar');

    const confirmation = itemAt(await mailsTo(page.request, email), 0);
    expect(confirmation.attachments.map((a) => a.filename)).toContain('class.ics');
    expect(confirmation.text).toContain('6:00 PM');

    // Returning: the same e-mail signs up for the later class; the same class again is refused.
    await page.goto(`/signup-selection?title=${encodeURIComponent('Gentle Flow & Friends')}&date=${later}&location=x`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expectAlert(page, 'Registration confirmed!', 'Check your email for details.');
    await closeAlert(page, 'Registration confirmed!');
    // The page goes on to the calendar by itself: arrive there before going elsewhere (a goto
    // racing that navigation was aborted on a busy machine).
    await page.waitForURL('**/calendar');
    await page.goto(`/signup-selection?title=${encodeURIComponent('Gentle Flow & Friends')}&date=${date}&location=x`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expectAlert(page, 'Already Signed Up');
  });
});
