import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminCookie } from '../helpers/auth.ts';
import { testDbKind } from '../helpers/database.ts';

let server: TestServer;
let cookie: string;
beforeAll(async () => {
  server = await startTestServer();
  cookie = await adminCookie(server);
});
afterAll(async () => {
  await server?.close();
});

/** A real 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(64)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(32)]);

/** A PNG signature followed by filler, `size` bytes in all. */
const pngOfSize = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]);

const upload = (bytes: Uint8Array, type = 'image/png', name = 'photo.png', field = 'file') => {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return server.api('/api/admin/images', { method: 'POST', body: form, headers: { cookie } });
};

const imageCount = async () =>
  (await server.services.db.selectFrom('images').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;

describe(`image uploads on ${testDbKind()}`, () => {
  it('stores a PNG and serves its bytes publicly, cached for good and never sniffed', async () => {
    const res = await upload(PNG);
    expect(res.status).toBe(201);
    const { url } = await res.json();
    expect(url).toMatch(/^\/api\/images\/[A-Za-z0-9_-]+$/);

    const image = await server.api(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('takes JPEG and WebP, typed by their bytes, not by what the upload claims', async () => {
    for (const [bytes, claimed, expected] of [
      [JPEG, 'image/jpeg', 'image/jpeg'],
      [WEBP, 'image/webp', 'image/webp'],
      [PNG, 'image/gif', 'image/png'],
      [JPEG, 'application/octet-stream', 'image/jpeg'],
    ] as const) {
      const res = await upload(bytes, claimed, 'x.bin');
      expect(res.status, claimed).toBe(201);
      const image = await server.api((await res.json()).url);
      expect(image.headers.get('content-type')).toBe(expected);
    }
  });

  it('refuses anything else, whatever type it claims, and stores nothing', async () => {
    const before = await imageCount();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;');
    for (const [bytes, type] of [
      [svg, 'image/svg+xml'],
      [html, 'image/png'],
      [gif, 'image/gif'],
      [Buffer.from('RIFF\0\0\0\0WAVEfmt '), 'image/webp'],
    ] as const) {
      const res = await upload(bytes, type);
      expect(res.status, type).toBe(400);
      expect((await res.json()).message).toBe('Please upload a PNG, JPEG or WebP image.');
    }
    expect(await imageCount()).toBe(before);
  });

  it('refuses an upload without a file, an empty file or a JSON body', async () => {
    const before = await imageCount();
    expect((await upload(PNG, 'image/png', 'x.png', 'image')).status).toBe(400);
    expect((await upload(new Uint8Array(0))).status).toBe(400);
    const json = await server.api('/api/admin/images', { method: 'POST', json: { file: PNG.toString('base64') }, headers: { cookie } });
    expect(json.status).toBe(400);
    expect((await json.json()).message).toEqual(expect.any(String));
    expect(await imageCount()).toBe(before);
  });

  it('refuses an image above 2 MB with 413 and stores nothing', async () => {
    const before = await imageCount();
    for (const size of [2 * 1024 * 1024 + 1, 3 * 1024 * 1024]) {
      const res = await upload(pngOfSize(size));
      expect(res.status).toBe(413);
      expect((await res.json()).message).toMatch(/too large|at most 2 MB/);
    }
    expect(await imageCount()).toBe(before);
  });

  // Needs the app-wide 512 KB body limit (api/app.ts) to let POST /api/admin/images through to
  // the route's own 2 MB limit.
  it('accepts an image of exactly 2 MB', async () => {
    const bytes = pngOfSize(2 * 1024 * 1024);
    const res = await upload(bytes);
    expect(res.status).toBe(201);
    const image = await server.api((await res.json()).url);
    expect(Buffer.from(await image.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers 404 for an unknown image and 400 for a malformed id', async () => {
    const unknown = await server.api('/api/images/00000000-0000-0000-0000-000000000000');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Image not found' });
    expect((await server.api('/api/images/..%2F..%2Fetc')).status).toBe(400);
  });

  it('an uploaded image can be a product\'s image', async () => {
    const { url } = await (await upload(PNG)).json();
    const res = await server.api('/api/chocolates', {
      method: 'POST',
      json: { name: 'Uploaded', image: url, price: 10, inventory: 1 },
      headers: { cookie },
    });
    expect(res.status).toBe(201);
    expect((await res.json()).product.image).toBe(url);
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
    const { url } = await (await upload(PNG)).json();
    await backdate(url, daysAgo);
    return url;
  }
  const served = async (url: string) => (await server.api(url)).status;

  it('goes when its product takes another image or is deleted; one in use or just uploaded stays', async () => {
    const first = await uploaded(3);
    const created = await asAdmin('/api/chocolates', 'POST', { name: 'Orphan Test Tin', image: first, price: 10, inventory: 1 });
    expect(created.status).toBe(201);
    const productId = (await created.json()).product._id;
    const shared = await uploaded(3);
    const other = await asAdmin('/api/chocolates', 'POST', { name: 'Shares Nothing', image: shared, price: 10, inventory: 1 });
    const otherId = (await other.json()).product._id;

    // Saving another product sweeps too, but both images are in use.
    expect((await asAdmin(`/api/chocolates/${otherId}`, 'PUT', { name: 'Shares Nothing', image: shared, price: 11, inventory: 1 })).status).toBe(200);
    expect(await served(first)).toBe(200);

    // The product takes a new image: the old one is nobody's and goes.
    const second = await uploaded(0);
    const put = await asAdmin(`/api/chocolates/${productId}`, 'PUT', { name: 'Orphan Test Tin', image: second, price: 10, inventory: 1 });
    expect(put.status).toBe(200);
    expect(await served(first)).toBe(404);
    expect(await served(second)).toBe(200);
    expect(await served(shared)).toBe(200);

    // Deleted with its product once it is older than a day; kept while it is new (an undo, a re-add).
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
    await upload(PNG);
    expect(await served(fresh)).toBe(200);
    expect(await served(abandoned)).toBe(404);
    expect(await served(kept)).toBe(200);
  });
});
