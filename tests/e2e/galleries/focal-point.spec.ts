/**
 * Issue 25: her focal point on a portrait photo, set from the admin's Galleries page on a phone.
 * The landscape cut the slideshow loads then moves under a new name. The photo is deleted at the
 * end: the other specs expect the illustrations.
 */
import { expect, test } from '@playwright/test';
import { cameraJpeg } from '../../helpers/camera.ts';
import { must } from '../../helpers/guards.ts';

test('the admin sets the focal point of a portrait slideshow photo; the gallery serves the new cut', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const login = await page.request.post('/api/admin/login', {
    data: { email: 'admin@example.com', password: 'namaste-cacao-42', recaptchaToken: 'dev:admin_login' },
  });
  expect(login.status()).toBe(200);
  // The stored profile the admin pages paint from (as after her login).
  const { admin } = (await login.json()) as { admin: unknown };
  await page.addInitScript((profile) => localStorage.setItem('admin', JSON.stringify(profile)), admin);
  const res = await page.request.post('/api/admin/galleries/yoga/photos', {
    multipart: { file: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await cameraJpeg(7, 1600, 1200) }, alt: 'A student in tree pose' },
  });
  expect(res.status()).toBe(201);
  const { photo } = (await res.json()) as { photo: { _id: string; picture: { crop?: { webp: string } } } };
  expect(photo.picture.crop?.webp).toMatch(/\/ca\/160\.webp/);
  try {
    await page.goto('/admin/galleries');
    const row = page.locator(`[data-gallery-photo="${photo._id}"]`);
    await row.getByRole('button', { name: 'Top of photo 1' }).click();
    await expect(row.getByText(/Focal point saved/)).toBeVisible();
    const gallery = (await (await page.request.get('/api/galleries/yoga')).json()) as {
      photos: { _id: string; picture: { crop?: { webp: string }; focus?: unknown } }[];
    };
    const saved = gallery.photos.find((p) => p._id === photo._id)!;
    expect(saved.picture.focus).toEqual({ x: 0.5, y: 0.15 });
    expect(saved.picture.crop?.webp).toMatch(/\/c50-15\/160\.webp/);
    // The cut under the new name is served; the old name is gone.
    expect((await page.request.get(must(saved.picture.crop, 'saved.picture.crop').webp.split(' ')[0]!)).status()).toBe(200);
    expect((await page.request.get(must(photo.picture.crop, 'photo.picture.crop').webp.split(' ')[0]!)).status()).toBe(404);
  } finally {
    expect((await page.request.delete(`/api/admin/galleries/yoga/photos/${photo._id}`)).status()).toBe(200);
  }
});
