import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { smallJpeg } from '../../helpers/photos.ts';
import type { ImageUploadedView, PictureView } from '../../../contract/images.ts';
import { itemAt, must, mustFind } from '../../helpers/guards.ts';

/**
 * Issue 25: portrait and square photos are cut to landscape (4:3) for landscape boxes, around the
 * focal point she sets; the new 160 and 480 steps; the cut's URLs change with the point.
 */
const server = useTestServer();
let cookie: string;

/** A portrait photo, red in its top fifth, blue below: where a cut was taken shows in its colour. */
async function portrait(width = 1200, height = 1800): Promise<Buffer> {
  const top = Math.round(height / 5);
  return sharp({ create: { width, height, channels: 3, background: '#2040c0' } })
    .composite([{ input: { create: { width, height: top, channels: 3, background: '#d02020' } }, top: 0, left: 0 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

const upload = async (bytes: Uint8Array) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
  const res = await server.api('/api/admin/images', { method: 'POST', body: form, headers: { cookie } });
  expect(res.status).toBe(201);
  return (await res.json()) as ImageUploadedView;
};
const entries = (srcset: string) =>
  srcset
    .split(', ')
    .filter(Boolean)
    .map((e) => ({ url: e.split(' ')[0]!, width: Number(itemAt(e.split(' '), 1).slice(0, -1)) }));
const pixelsOf = async (url: string) => {
  const res = await server.api(url);
  expect(res.status, url).toBe(200);
  return sharp(Buffer.from(await res.arrayBuffer()));
};
/** The colour in the middle of the served picture: [r, g, b]. */
async function middleColour(url: string): Promise<number[]> {
  const img = await pixelsOf(url);
  const { width, height } = await img.metadata();
  const { data } = await img
    .extract({ left: Math.floor(width! / 2), top: Math.floor(height! / 2), width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, 3)];
}
const isRed = ([r, , b]: number[]) => r! > 150 && b! < 100;
const isBlue = ([r, , b]: number[]) => b! > 150 && r! < 100;

beforeAll(async () => {
  cookie = await adminCookie(server);
});

describe(`landscape cuts and focal points on ${testDbKind()}`, () => {
  it('cuts a portrait photo to 4:3 in every size up to 1280, AVIF and WebP; the whole photo keeps its 160 and 480 steps', async () => {
    const { picture } = await upload(await portrait());
    expect([picture.width, picture.height]).toEqual([1200, 1800]);
    expect(entries(picture.webp).map((e) => e.width)).toEqual([160, 320, 480, 640, 960, 1200]);
    expect(picture.crop).toBeDefined();
    const crop = picture.crop!;
    expect([crop.width, crop.height]).toEqual([960, 720]);
    expect(entries(crop.avif).map((e) => e.width)).toEqual([160, 320, 480, 640, 960]);
    expect(entries(crop.webp).map((e) => e.width)).toEqual([160, 320, 480, 640, 960]);
    for (const [format, srcset] of [
      ['heif', crop.avif],
      ['webp', crop.webp],
    ] as const) {
      for (const { url, width } of entries(srcset)) {
        expect(url).toMatch(/\/api\/images\/[\w-]+\/ca\/\d+\.(avif|webp)$/);
        const res = await server.api(url);
        expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
        expect(meta.format).toBe(format);
        expect([meta.width, meta.height], url).toEqual([width, Math.round((width * 3) / 4)]);
      }
    }
    // The cut is what a small landscape box loads: far lighter than the portrait of the same width.
    const whole = (await (await server.api(mustFind(entries(picture.webp), (e) => e.width === 320).url)).arrayBuffer()).byteLength;
    const cut = (await (await server.api(mustFind(entries(crop.webp), (e) => e.width === 320).url)).arrayBuffer()).byteLength;
    expect(cut).toBeLessThan(whole);
  });

  it('leaves a landscape photo whole (no cut to make)', async () => {
    const { picture } = await upload(await smallJpeg(1200, 800));
    expect(picture.crop).toBeUndefined();
    expect(entries(picture.avif).map((e) => e.width)).toEqual([160, 320, 480, 640, 960, 1200]);
  });

  it('her focal point moves the cut, under new URLs; the old ones are gone; null gives the choice back', async () => {
    const { url, picture } = await upload(await portrait());
    const id = url.slice('/api/images/'.length);
    const focus = (body: unknown, withCookie = true) =>
      server.api(`/api/admin/images/${id}/focus`, { method: 'PUT', json: body, headers: withCookie ? { cookie } : {} });

    const top = await focus({ focus: { x: 0.5, y: 0.05 } });
    expect(top.status).toBe(200);
    const atTop = ((await top.json()) as ImageUploadedView).picture;
    expect(atTop.focus).toEqual({ x: 0.5, y: 0.05 });
    const topUrl = mustFind(entries(must(atTop.crop, 'atTop.crop').webp), (e) => e.width === 320).url;
    expect(topUrl).toMatch(/\/c50-5\/320\.webp$/);
    // The cut starts at the top: its upper part is the red band.
    const img = await pixelsOf(topUrl);
    const { data } = await img.extract({ left: 160, top: 5, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    expect(isRed([...data])).toBe(true);

    const bottom = await focus({ focus: { x: 0.5, y: 0.95 } });
    const atBottom = ((await bottom.json()) as ImageUploadedView).picture;
    const bottomUrl = mustFind(entries(must(atBottom.crop, 'atBottom.crop').webp), (e) => e.width === 320).url;
    expect(bottomUrl).toMatch(/\/c50-95\/320\.webp$/);
    expect(isBlue(await middleColour(bottomUrl))).toBe(true);
    expect((await server.api(topUrl)).status).toBe(404);
    expect((await server.api(itemAt(entries(must(picture.crop, 'picture.crop').webp), 0).url)).status).toBe(404);

    const list = (await (await server.api('/api/admin/images', { headers: { cookie } })).json()) as { id: string; picture: PictureView }[];
    expect(list.find((i) => i.id === id)?.picture.focus).toEqual({ x: 0.5, y: 0.95 });

    const cleared = ((await (await focus({ focus: null })).json()) as ImageUploadedView).picture;
    expect(cleared.focus).toBeNull();
    expect(must(cleared.crop, 'cleared.crop').webp).toMatch(/\/ca\/320\.webp/);
  });

  it('refuses a focal point without an admin, outside the photo, or for an image that does not exist', async () => {
    const { url } = await upload(await portrait(600, 900));
    const id = url.slice('/api/images/'.length);
    const put = (path: string, body: unknown, withCookie = true) => server.api(path, { method: 'PUT', json: body, headers: withCookie ? { cookie } : {} });
    expect((await put(`/api/admin/images/${id}/focus`, { focus: { x: 0.5, y: 0.5 } }, false)).status).toBe(401);
    expect((await put(`/api/admin/images/${id}/focus`, { focus: { x: 1.5, y: 0.5 } })).status).toBe(400);
    expect((await put(`/api/admin/images/${id}/focus`, { focus: { x: 0.5 } })).status).toBe(400);
    expect((await put('/api/admin/images/00000000-0000-4000-8000-000000000000/focus', { focus: { x: 0.5, y: 0.5 } })).status).toBe(404);
    expect((await server.api(`/api/images/${id}/c999-1/320.webp`)).status).toBe(400);
  });
});
