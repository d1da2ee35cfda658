/**
 * Phone-sized photos for the benchmarks and the scroll test (issue 14, 25): a 12-MP "camera" JPEG,
 * gradients and shapes under sensor-like grain, held sideways (EXIF orientation 6) with a GPS
 * position; about 3 MB as JPEG at quality 92, as a phone photo is. Deterministic by seed.
 * `texture: 'fine'` (issue 36) adds detail that survives being scaled down, as sand, bark, linen,
 * grated chocolate or a field of grass do: the kind of photo that compresses worst (a 1280-px
 * AVIF of it weighs three times a smooth photo's).
 */
import sharp from 'sharp';

/** Noise around mid-grey, ± 128 >> `shift`: xorshift32, the same bytes for the same seed. */
function grain(bytes: number, seed: number, shift = 3): Buffer {
  const out = Buffer.allocUnsafe(bytes);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < bytes; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = 128 + (((x & 0xff) - 128) >> shift);
  }
  return out;
}

/**
 * Strong grain made at a quarter and a half of the size and scaled up: specks 2–4 px across, which
 * a 1280-px size still shows (the sensor grain alone averages away when a photo is scaled down).
 */
async function texture(w: number, h: number, seed: number): Promise<Buffer> {
  const layer = async (scale: number, shift: number) => {
    const [lw, lh] = [Math.ceil(w / scale), Math.ceil(h / scale)];
    return sharp(grain(lw * lh * 3, seed * 7 + scale, shift), { raw: { width: lw, height: lh, channels: 3 } })
      .resize(w, h, { kernel: 'cubic' })
      .png({ compressionLevel: 0 })
      .toBuffer();
  };
  return sharp(await layer(4, 1))
    .composite([{ input: await layer(2, 1), blend: 'overlay' }])
    .removeAlpha()
    .raw()
    .toBuffer();
}

/** `width` × `height` as stored; shown turned a quarter (portrait for the default 4032 × 3024). */
export async function cameraJpeg(seed: number, width = 4032, height = 3024, options: { texture?: 'fine' } = {}): Promise<Buffer> {
  const [w, h] = [width, height];
  const hue = (seed * 47) % 360;
  const shapes = Array.from({ length: 14 }, (_, i) => {
    const r = Math.round(((120 + ((seed * 31 + i * 97) % 500)) * w) / 4032);
    return `<circle cx="${(seed * 211 + i * 577) % w}" cy="${(seed * 113 + i * 331) % h}" r="${r}" fill="hsl(${(hue + i * 23) % 360},${40 + (i % 4) * 12}%,${30 + (i % 5) * 10}%)" fill-opacity="0.7"/>`;
  }).join('');
  const scene = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},50%,25%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},60%,80%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
  return sharp(Buffer.from(scene))
    .composite([
      ...(options.texture === 'fine'
        ? [{ input: await texture(w, h, seed), raw: { width: w, height: h, channels: 3 as const }, blend: 'soft-light' as const }]
        : []),
      { input: grain(w * h * 3, seed + 1), raw: { width: w, height: h, channels: 3 }, blend: 'overlay' },
    ])
    .jpeg({ quality: 92 })
    .withExif({
      IFD0: { Make: 'BenchPhone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 46/1 30/1', GPSLongitudeRef: 'W', GPSLongitude: '122/1 25/1 10/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}
