/**
 * Photographs made in the test, as a phone would send them: noise (the worst case for every
 * encoder, and no two alike), an EXIF orientation and a GPS position. Made once per file: a
 * 12-MP JPEG takes about half a second.
 */
import sharp from 'sharp';
import { crc32, deflateSync } from 'node:zlib';

function noise(width: number, height: number, channels = 3): Buffer {
  const out = Buffer.allocUnsafe(width * height * channels);
  // A cheap generator: crypto-quality randomness would cost seconds for nothing.
  let x = (width * 2654435761 + height) >>> 0 || 1;
  for (let i = 0; i < out.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** A camera JPEG held sideways (orientation 6: stored landscape, shown portrait) that says where it was taken. */
export async function phoneJpeg(width = 4032, height = 3024, quality = 90): Promise<Buffer> {
  return (
    sharp(noise(width, height), { raw: { width, height, channels: 3 } })
      .jpeg({ quality })
      .withExif({
        IFD0: { Make: 'TestPhone', Model: 'Kitchen Cam' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 46/1 30/1', GPSLongitudeRef: 'W', GPSLongitude: '122/1 25/1 10/1' },
      })
      // After withExif, which would otherwise replace it.
      .withMetadata({ orientation: 6 })
      .toBuffer()
  );
}

/** Whether EXIF bytes carry a GPS block (the GPS IFD pointer, tag 0x8825, little-endian as sharp writes it). */
export function hasGps(exif: Buffer | undefined): boolean {
  return !!exif && exif.includes(Buffer.from([0x25, 0x88]));
}

/** A PNG of noise: close to 3 bytes per pixel, so its size is easy to aim at. */
export async function noisePng(width: number, height: number): Promise<Buffer> {
  return sharp(noise(width, height), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** A small, quick photo of one colour (for tests about order, alt text and deletion). */
export async function smallJpeg(width = 800, height = 600, colour = '#a0522d'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

/** A PNG put together by hand (no encoder): its header (8 bits a channel, `colourType` 2 RGB or 6 RGBA) and `idat`. */
function handMadePng(width: number, height: number, colourType: 2 | 6, idat: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, colourType, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG whose header claims `width` × `height` pixels (a decompression bomb's opening), with no real pixels. */
export function pngBomb(width = 30_000, height = 30_000): Buffer {
  return handMadePng(width, height, 2, Buffer.alloc(64));
}

/** A valid RGBA PNG of one colour, built by hand (no image library involved). */
export function solidPng(width = 8, height = 4, rgba: [number, number, number, number] = [120, 60, 30, 255]): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgba).flat())]);
  return handMadePng(width, height, 6, deflateSync(Buffer.concat(Array.from({ length: height }, () => row))));
}

/** The opening of an iPhone HEIC file (the `ftyp` box with the `heic` brand). */
export function heicOpening(): Buffer {
  return Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'), Buffer.alloc(256)]);
}
