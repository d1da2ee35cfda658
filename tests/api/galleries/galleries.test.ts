import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { smallJpeg } from '../../helpers/photos.ts';
import type { GalleryPhotoSavedView, GalleryView } from '../../../contract/galleries.ts';
import { must, mustFind } from '../../helpers/guards.ts';

const server = useTestServer();
let cookie: string;
let photos: Buffer[];
beforeAll(async () => {
  [cookie, ...photos] = await Promise.all([
    adminCookie(server),
    smallJpeg(1200, 800, '#8b4513'),
    smallJpeg(900, 1200, '#556b2f'),
    smallJpeg(640, 640, '#4682b4'),
  ]);
});

const send = (gallery: string, bytes: Uint8Array, alt: string | undefined, withCookie = true) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
  if (alt !== undefined) form.append('alt', alt);
  return server.api(`/api/admin/galleries/${gallery}/photos`, { method: 'POST', body: form, headers: withCookie ? { cookie } : {} });
};
const asAdmin = (path: string, method: string, json?: unknown) => server.api(path, { method, json, headers: { cookie } });
const gallery = async (name: string) => (await (await server.api(`/api/galleries/${name}`)).json()) as GalleryView;
const rows = async () =>
  (
    await sql<{
      photos: number;
      images: number;
    }>`select (select count(*)::int from gallery_photos) as photos, (select count(*)::int from images) as images`.execute(server.services.db)
  ).rows[0];

describe(`galleries on ${testDbKind()}`, () => {
  it('starts empty: the pages keep their illustrations', async () => {
    expect(await gallery('yoga')).toEqual({ gallery: 'yoga', photos: [] });
    expect((await server.api('/api/galleries/cakes')).status).toBe(400);
  });

  it('refuses a photo without alt text (or with blank alt text), and stores nothing', async () => {
    const before = await rows();
    for (const alt of [undefined, '', '   ']) {
      const res = await send('yoga', photos[0]!, alt);
      expect(res.status, JSON.stringify(alt)).toBe(400);
      expect((await res.json()).message).toBe('Alt text is required');
    }
    expect(await rows()).toEqual(before);
  });

  it('refuses every admin call without an admin session', async () => {
    expect((await send('yoga', photos[0]!, 'A class', false)).status).toBe(401);
    expect((await server.api('/api/admin/galleries/yoga/order', { method: 'PUT', json: { ids: [] } })).status).toBe(401);
    expect((await server.api('/api/admin/galleries/yoga/photos/x', { method: 'PUT', json: { alt: 'x' } })).status).toBe(401);
    expect((await server.api('/api/admin/galleries/yoga/photos/x', { method: 'DELETE' })).status).toBe(401);
  });

  it('serves uploads at once (no rebuild), in order, with alt text, sizes and a placeholder; reorder, edit and delete', async () => {
    const alts = ['Morning class by the window', 'Hands in anjali mudra', 'Mats rolled after class'];
    const ids: string[] = [];
    for (const [i, bytes] of photos.entries()) {
      const res = await send('yoga', bytes, alts[i]);
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as GalleryPhotoSavedView).photo._id);
    }
    let yoga = await gallery('yoga');
    expect(yoga.photos.map((p) => p.alt)).toEqual(alts);
    expect(yoga.photos.map((p) => [p.picture.width, p.picture.height])).toEqual([
      [1200, 800],
      [900, 1200],
      [640, 640],
    ]);
    for (const p of yoga.photos) {
      expect(p.picture.placeholder).toMatch(/^data:image\/webp;base64,/);
      expect(p.picture.avif).toMatch(/ 320w/);
      expect(p.picture.webp).toMatch(/ 320w/);
    }
    // The other gallery is its own.
    expect((await gallery('chocolates')).photos).toEqual([]);

    // Reorder: the new order is served; a list that is not exactly the gallery's photos is refused.
    const reordered = [ids[2]!, ids[0]!, ids[1]!];
    expect((await asAdmin('/api/admin/galleries/yoga/order', 'PUT', { ids: reordered })).status).toBe(200);
    yoga = await gallery('yoga');
    expect(yoga.photos.map((p) => p._id)).toEqual(reordered);
    for (const bad of [
      [ids[0], ids[1]],
      [ids[0], ids[0], ids[1]],
      [...reordered, 'someone-else'],
    ]) {
      expect((await asAdmin('/api/admin/galleries/yoga/order', 'PUT', { ids: bad })).status).toBe(409);
    }
    expect((await gallery('yoga')).photos.map((p) => p._id)).toEqual(reordered);

    // Alt text: edited, never emptied.
    expect((await asAdmin(`/api/admin/galleries/yoga/photos/${ids[1]}`, 'PUT', { alt: '  ' })).status).toBe(400);
    const edited = await asAdmin(`/api/admin/galleries/yoga/photos/${ids[1]}`, 'PUT', { alt: 'Hands at the heart' });
    expect(edited.status).toBe(200);
    expect((await gallery('yoga')).photos.map((p) => p.alt)).toEqual([alts[2], alts[0], 'Hands at the heart']);
    // A photo of one gallery can't be edited through the other.
    expect((await asAdmin(`/api/admin/galleries/chocolates/photos/${ids[1]}`, 'PUT', { alt: 'x' })).status).toBe(404);

    // Delete: the photo and its image go; the rest keep their order.
    const before = must(await rows(), 'before');
    const src = mustFind(yoga.photos, (p) => p._id === ids[0]).picture.src;
    expect((await asAdmin(`/api/admin/galleries/yoga/photos/${ids[0]}`, 'DELETE')).status).toBe(200);
    expect(await rows()).toEqual({ photos: before.photos - 1, images: before.images - 1 });
    expect((await server.api(src)).status).toBe(404);
    expect((await gallery('yoga')).photos.map((p) => p._id)).toEqual([ids[2], ids[1]]);
    expect((await asAdmin(`/api/admin/galleries/yoga/photos/${ids[0]}`, 'DELETE')).status).toBe(404);
  });

  it('a gallery photo is never swept as an orphan image', async () => {
    const res = await send('chocolates', photos[2]!, 'A stack of tins');
    const { photo } = (await res.json()) as GalleryPhotoSavedView;
    await sql`update images set created_at = now() - interval '5 days'`.execute(server.services.db);
    // Any product image upload sweeps orphans.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photos[2]!)], { type: 'image/jpeg' }), 'tin.jpg');
    expect((await server.api('/api/admin/images', { method: 'POST', body: form, headers: { cookie } })).status).toBe(201);
    expect((await server.api(photo.picture.src)).status).toBe(200);
    expect((await gallery('chocolates')).photos).toHaveLength(1);
  });
});
