import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { cameraJpeg } from '../../helpers/camera.ts';
import type { ImageUploadedView } from '../../../contract/images.ts';
import { must } from '../../helpers/guards.ts';

/**
 * Issue 36: a photo of fine texture (sand, linen, grated chocolate: the kind that compresses
 * worst) stays light in its large sizes, the ones a wide box or a dense screen fetches. Quality by
 * output width (api/images/process.ts qualityFor, decision 0049): lower where the bytes are, higher
 * in the small sizes. Measured on what the server sends for a 2-MP textured camera photo held
 * sideways (a portrait 1200 × 1600 and its 4:3 cut); with one quality for every size, as before,
 * the cut's 960-px AVIF was 83 KB and the whole photo's 1200-px AVIF 209 KB.
 */
const server = useTestServer();
let cookie: string;
let uploaded: ImageUploadedView;

const bytesOf = async (srcset: string, width: number) => {
  const url = srcset
    .split(', ')
    .map((e) => e.split(' '))
    .find(([, w]) => w === `${width}w`)?.[0];
  expect(url, `${width}w in ${srcset}`).toBeDefined();
  const res = await server.api(url!);
  expect(res.status, url).toBe(200);
  return (await res.arrayBuffer()).byteLength;
};

beforeAll(async () => {
  cookie = await adminCookie(server);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await cameraJpeg(7, 1600, 1200, { texture: 'fine' }))], { type: 'image/jpeg' }), 'photo.jpg');
  const res = await server.api('/api/admin/images', { method: 'POST', body: form, headers: { cookie } });
  expect(res.status).toBe(201);
  uploaded = (await res.json()) as ImageUploadedView;
});

describe(`textured photos by size on ${testDbKind()}`, () => {
  it('sends the large AVIF sizes of a finely textured photo at a fraction of one-quality-for-all', async () => {
    const { picture } = uploaded;
    expect(picture.width).toBe(1200);
    // The landscape cut's 960 (a card or a cover at DPR 3 on a tablet): 83 KB at one quality.
    expect(await bytesOf(must(picture.crop, 'picture.crop').avif, 960)).toBeLessThan(72 * 1024);
    // The whole photo at its full 1200 px (a photo in a post's text, wide screens): 209 KB at one quality.
    expect(await bytesOf(picture.avif, 1200)).toBeLessThan(160 * 1024);
  });

  it('gives the small sizes, seen closest, more quality than the large ones: a 320-px AVIF is not starved of its texture', async () => {
    const { picture } = uploaded;
    // Per pixel, the 320-px cut keeps more than the 960-px one (higher quality where bytes are few).
    const perPixel = async (w: number) => (await bytesOf(must(picture.crop, 'picture.crop').avif, w)) / (w * w * 0.75);
    expect(await perPixel(320)).toBeGreaterThan(await perPixel(960));
  });
});
