import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import sharp from 'sharp';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { hasGps, heicOpening, noisePng, phoneJpeg, pngBomb, smallJpeg } from '../../helpers/photos.ts';
import type { ImageUploadedView, PictureView } from '../../../contract/images.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const server = useTestServer();
let cookie: string;
/** A 12-MP phone photo: 4032 × 3024 stored sideways with orientation 6 and a GPS position. */
let phone: Buffer;
let small: Buffer;
beforeAll(async () => {
  [cookie, phone, small] = await Promise.all([adminCookie(server), phoneJpeg(), smallJpeg()]);
});

const upload = (bytes: Uint8Array, type = 'image/jpeg', name = 'photo.jpg', field = 'file') => {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return server.api('/api/admin/images', { method: 'POST', body: form, headers: { cookie } });
};

const count = async (table: 'images' | 'image_variants') =>
  itemAt((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(server.services.db)).rows, 0).n;
const counts = async () => [await count('images'), await count('image_variants')];

/** Every URL of a picture: the `src` and each srcset entry, with the width it claims. */
function urlsOf(p: PictureView): { url: string; width: number; format: 'avif' | 'webp' }[] {
  const entries = (srcset: string, format: 'avif' | 'webp') =>
    srcset
      .split(', ')
      .filter(Boolean)
      .map((e) => {
        const [url, w] = e.split(' ');
        return { url: url!, width: Number(must(w, 'w').slice(0, -1)), format };
      });
  return [...entries(p.avif, 'avif'), ...entries(p.webp, 'webp')];
}

describe(`the photo pipeline on ${testDbKind()}`, () => {
  it('the phone photo really carries its orientation and GPS (the test would prove nothing otherwise)', async () => {
    const meta = await sharp(phone).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([4032, 3024, 6]);
    expect(hasGps(meta.exif)).toBe(true);
    expect(phone.length).toBeGreaterThan(3 * 1024 * 1024);
  });

  it('takes a 12-MP phone JPEG: upright, at most 2560 px, every size in AVIF and WebP, no metadata in any served byte', async () => {
    const res = await upload(phone);
    expect(res.status).toBe(201);
    const { url, picture } = (await res.json()) as ImageUploadedView;
    expect(url).toMatch(/^\/api\/images\/[A-Za-z0-9_-]+$/);
    // Orientation 6 turns the 4032 × 3024 landscape pixels into a portrait: the sides swap.
    expect([picture.width, picture.height]).toEqual([1920, 2560]);
    expect(picture.src).toBe(url);
    expect(picture.placeholder).toMatch(/^data:image\/webp;base64,[A-Za-z0-9+/=]+$/);
    expect(picture.placeholder.length).toBeLessThan(600);

    const urls = urlsOf(picture);
    expect(urls.filter((u) => u.format === 'avif').map((u) => u.width)).toEqual([160, 320, 480, 640, 960, 1280, 1920]);
    expect(urls.filter((u) => u.format === 'webp').map((u) => u.width)).toEqual([160, 320, 480, 640, 960, 1280, 1920]);
    for (const { url: u, width, format } of urls) {
      const served = await server.api(u);
      expect(served.status, u).toBe(200);
      expect(served.headers.get('content-type')).toBe(`image/${format}`);
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(meta.format).toBe(format === 'avif' ? 'heif' : 'webp');
      expect(meta.width, u).toBe(width);
      expect(meta.height, u).toBe(Math.round((2560 * width) / 1920));
      expect(meta.exif, u).toBeUndefined();
      expect(meta.xmp, u).toBeUndefined();
      expect(meta.orientation ?? 1, u).toBe(1);
    }
    // And the stored bytes themselves (a replica or a backup holds these).
    const stored = await server.services.db.selectFrom('imageVariants').select('bytes').execute();
    for (const { bytes } of stored) expect((await sharp(Buffer.from(bytes)).metadata()).exif).toBeUndefined();
  });

  it('accepts an upload just under 20 MB and keeps a smaller photo at its own size', async () => {
    const big = await noisePng(2600, 2500);
    expect(big.length).toBeGreaterThan(19 * 1024 * 1024);
    expect(big.length).toBeLessThanOrEqual(20 * 1024 * 1024);
    const res = await upload(big, 'image/png', 'scan.png');
    expect(res.status).toBe(201);
    const { picture } = (await res.json()) as ImageUploadedView;
    expect([picture.width, picture.height]).toEqual([2560, 2462]);
    // The largest AVIF is 1920 wide; the 2560 WebP is `src`.
    expect(
      urlsOf(picture)
        .filter((u) => u.format === 'avif')
        .map((u) => u.width),
    ).toEqual([160, 320, 480, 640, 960, 1280, 1920]);
    expect(picture.webp.endsWith(`${picture.src} 2560w`)).toBe(true);

    const smallRes = await upload(small);
    const smallPicture = ((await smallRes.json()) as ImageUploadedView).picture;
    expect([smallPicture.width, smallPicture.height]).toEqual([800, 600]);
    // Never enlarged: only the widths below 800, plus the photo itself.
    expect(urlsOf(smallPicture).map((u) => `${u.format}${u.width}`)).toEqual([
      'avif160',
      'avif320',
      'avif480',
      'avif640',
      'avif800',
      'webp160',
      'webp320',
      'webp480',
      'webp640',
      'webp800',
    ]);
  });

  it('refuses what is not a usable photo with a clear 4xx, and stores nothing', async () => {
    const before = await counts();
    const truncated = phone.subarray(0, Math.floor(phone.length / 2));
    const cases: [string, Uint8Array, number, RegExp][] = [
      ['text', Buffer.from('just some words, not a photo'), 415, /PNG, JPEG, WebP or AVIF/],
      ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 415, /PNG, JPEG, WebP or AVIF/],
      [
        'GIF',
        await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
          .gif()
          .toBuffer(),
        415,
        /PNG, JPEG, WebP or AVIF/,
      ],
      ['HEIC', heicOpening(), 415, /HEIC.*JPEG/],
      ['a truncated JPEG', truncated, 400, /damaged or incomplete/],
      ['a 30 000 × 30 000 PNG header', pngBomb(), 413, /too many pixels/],
    ];
    for (const [what, bytes, status, message] of cases) {
      const res = await upload(bytes, 'image/jpeg');
      expect(res.status, what).toBe(status);
      expect((await res.json()).message, what).toMatch(message);
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses an upload above 20 MB with 413, an upload without a file, an empty file or a JSON body', async () => {
    const before = await counts();
    const res = await upload(Buffer.alloc(20 * 1024 * 1024 + 1));
    expect(res.status).toBe(413);
    expect((await res.json()).message).toBe('The image must be at most 20 MB.');
    expect((await upload(small, 'image/jpeg', 'x.jpg', 'image')).status).toBe(400);
    expect((await upload(new Uint8Array(0))).status).toBe(400);
    const json = await server.api('/api/admin/images', { method: 'POST', json: { file: small.toString('base64') }, headers: { cookie } });
    expect(json.status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('refuses an upload without an admin session before reading it', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(small)], { type: 'image/jpeg' }), 'x.jpg');
    expect((await server.api('/api/admin/images', { method: 'POST', body: form })).status).toBe(401);
  });

  it('answers 404 for an unknown image or size and 400 for a malformed one', async () => {
    const unknown = await server.api('/api/images/00000000-0000-0000-0000-000000000000');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Image not found' });
    expect((await server.api('/api/images/..%2F..%2Fetc')).status).toBe(400);
    const { url } = (await (await upload(small)).json()) as ImageUploadedView;
    expect((await server.api(`${url}/321.webp`)).status).toBe(404);
    expect((await server.api(`${url}/320.png`)).status).toBe(400);
  });

  it("an uploaded image can be a product's image, and the product list carries its sizes", async () => {
    const { url, picture } = (await (await upload(small)).json()) as ImageUploadedView;
    const res = await server.api('/api/chocolates', { method: 'POST', json: { name: 'Uploaded', image: url, price: 10, inventory: 1 }, headers: { cookie } });
    expect(res.status).toBe(201);
    expect((await res.json()).product.image).toBe(url);
    const listed = ((await (await server.api('/api/chocolates')).json()) as { name: string; image: string; picture?: PictureView }[]).find(
      (p) => p.name === 'Uploaded',
    );
    expect(listed?.picture).toEqual(picture);
    const other = await server.api('/api/chocolates', {
      method: 'POST',
      json: { name: 'Drawn', image: '/images/chocolates/hero.svg', price: 10, inventory: 1 },
      headers: { cookie },
    });
    expect(other.status).toBe(201);
    const drawn = ((await (await server.api('/api/chocolates')).json()) as { name: string; picture?: PictureView }[]).find((p) => p.name === 'Drawn');
    expect(drawn && 'picture' in drawn).toBe(false);
  });
});

describe(`images nobody shows on ${testDbKind()}`, () => {
  const asAdmin = (path: string, method: string, json?: unknown) => server.api(path, { method, json, headers: { cookie } });
  const idOf = (url: string) => url.slice('/api/images/'.length);
  // created_at is not writable through the typed builder (it is the upload time): plain SQL.
  const backdate = (url: string, daysAgo: number) =>
    sql`update images set created_at = ${new Date(Date.now() - daysAgo * 86_400_000)} where id = ${idOf(url)}`.execute(server.services.db);
  /** Uploads an image dated `daysAgo` days back. */
  async function uploaded(daysAgo: number): Promise<string> {
    const { url } = await (await upload(small)).json();
    await backdate(url, daysAgo);
    return url;
  }
  const served = async (url: string) => (await server.api(url)).status;

  it('goes (with its sizes) when its product takes another image or is deleted; one in use or just uploaded stays', async () => {
    const first = await uploaded(3);
    const created = await asAdmin('/api/chocolates', 'POST', { name: 'Orphan Test Tin', image: first, price: 10, inventory: 1 });
    expect(created.status).toBe(201);
    const productId = (await created.json()).product._id;
    const shared = await uploaded(3);
    const other = await asAdmin('/api/chocolates', 'POST', { name: 'Shares Nothing', image: shared, price: 10, inventory: 1 });
    const otherId = (await other.json()).product._id;

    expect((await asAdmin(`/api/chocolates/${otherId}`, 'PUT', { name: 'Shares Nothing', image: shared, price: 11, inventory: 1 })).status).toBe(200);
    expect(await served(first)).toBe(200);

    const second = await uploaded(0);
    const put = await asAdmin(`/api/chocolates/${productId}`, 'PUT', { name: 'Orphan Test Tin', image: second, price: 10, inventory: 1 });
    expect(put.status).toBe(200);
    expect(await served(first)).toBe(404);
    expect(await served(`${first}/320.webp`)).toBe(404);
    expect(await served(second)).toBe(200);
    expect(await served(shared)).toBe(200);

    expect((await asAdmin(`/api/chocolates/${productId}`, 'DELETE')).status).toBe(200);
    expect(await served(second)).toBe(200);
    await backdate(second, 2);
    expect((await asAdmin(`/api/chocolates/${otherId}`, 'DELETE')).status).toBe(200);
    expect(await served(second)).toBe(404);
    expect(await served(shared)).toBe(404);
  });

  it('an upload never saved into a product stays a day, then goes with the next upload', async () => {
    const fresh = await uploaded(0);
    const abandoned = await uploaded(2);
    const kept = await uploaded(5);
    expect((await asAdmin('/api/chocolates', 'POST', { name: 'Keeps Its Image', image: kept, price: 10, inventory: 1 })).status).toBe(201);
    await upload(small);
    expect(await served(fresh)).toBe(200);
    expect(await served(abandoned)).toBe(404);
    expect(await served(kept)).toBe(200);
  });

  it("a photo on one of her pages (draft, published or only in an earlier revision) is not swept; the admin's list has her uploads", async () => {
    const onPage = await uploaded(3);
    const page = await (await asAdmin('/api/admin/pages/about', 'GET')).json();
    const saved = await asAdmin('/api/admin/pages/about', 'PUT', { content: { ...page.content, portrait: onPage }, version: page.version });
    expect(saved.status).toBe(200);
    expect((await asAdmin('/api/admin/pages/about/publish', 'POST')).status).toBe(200);
    // Back to the illustration: the photo lives on only in the revision a restore can bring back.
    const again = await (await asAdmin('/api/admin/pages/about', 'GET')).json();
    expect((await asAdmin('/api/admin/pages/about', 'PUT', { content: page.content, version: again.version })).status).toBe(200);
    expect((await asAdmin('/api/admin/pages/about/publish', 'POST')).status).toBe(200);
    await upload(small);
    expect(await served(onPage)).toBe(200);

    const list = await asAdmin('/api/admin/images', 'GET');
    expect(list.status).toBe(200);
    const items = (await list.json()) as { id: string; url: string; picture: PictureView }[];
    const mine = items.find((i) => i.url === onPage);
    expect(mine?.picture.webp).toContain(`${onPage}/320.webp`);
    expect((await server.api('/api/admin/images')).status).toBe(401);
  });
});
