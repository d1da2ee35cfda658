import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { smallJpeg } from '../../helpers/photos.ts';
import { chooseEncoding } from '../../../api/middleware/compress.ts';

const server = useTestServer();
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(server);
  // Enough chocolates for the public list to weigh several KB.
  await server.services.db
    .insertInto('products')
    .values(
      Array.from({ length: 40 }, (_, i) => ({
        name: `Bonbon ${i}`,
        image: '',
        description: 'Dark chocolate with sea salt and a little cardamom, made by hand in small batches.',
        details: '12 pieces',
        priceCents: 1850 + i,
        inventory: 5,
      })),
    )
    .execute();
});

/** The bytes as they cross the wire (fetch would decode them), with the answer's headers. */
const raw = (path: string, headers: Record<string, string> = {}, method = 'GET') => rawRequest(server.url, path, headers, method);

describe(`API answers compressed on ${testDbKind()}`, () => {
  it('picks brotli over gzip, honours q=0, and nothing when nothing is accepted', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip, br;q=0')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });

  it('sends a JSON answer over 1 KB as brotli, or gzip, to a client that asks; the same JSON either way', async () => {
    const plain = await raw('/api/chocolates');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(4096);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const products = JSON.parse(plain.body.toString('utf8')) as unknown[];
    expect(products).toHaveLength(40);

    const br = await raw('/api/chocolates', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length / 5);
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(products);

    const gz = await raw('/api/chocolates', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(gunzipSync(gz.body).toString('utf8'))).toEqual(products);
  });

  it('an admin answer too (her lists are the largest), with its cookies and headers kept', async () => {
    const res = await raw('/api/admin/orders', { 'accept-encoding': 'br', cookie, origin: server.url });
    expect(res.status).toBe(200);
    // Small here (no orders): under the threshold it goes as it is.
    if (res.body.length > 1024) expect(res.headers['content-encoding']).toBe('br');
    else expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('leaves answers of 1 KB or less, HEAD requests and refusals of small size as they are', async () => {
    const health = await raw('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(health.status).toBe(200);
    expect(health.body.length).toBeLessThanOrEqual(1024);
    expect(health.headers['content-encoding']).toBeUndefined();
    const missing = await raw('/api/no-such-thing', { 'accept-encoding': 'br, gzip' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(missing.body.toString('utf8'))).toHaveProperty('message');
    const head = await raw('/api/chocolates', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses a photo (already compressed) and keeps its immutable headers', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await smallJpeg(1200, 800, '#8b4513'))], { type: 'image/jpeg' }), 'photo.jpg');
    const up = await server.api('/api/admin/images', { method: 'POST', body: form, headers: { cookie } });
    expect(up.status).toBe(201);
    const { url } = (await up.json()) as { url: string };
    const photo = await raw(`${url}/320.webp`, { 'accept-encoding': 'br, gzip' });
    expect(photo.status).toBe(200);
    expect(photo.headers['content-type']).toBe('image/webp');
    expect(photo.headers['content-encoding']).toBeUndefined();
    expect(photo.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
