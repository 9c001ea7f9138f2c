// A rectangle cut out of a PNG screenshot, in node: the WebDriver engines' screenshots are of the
// whole viewport (WebDriver has no clip), and a crop drawn by a canvas in the page made two equal
// regions compare unequal in Firefox (its canvas read-back is not the pixels it was given, it
// seems). Reads what browsers write: 8-bit greyscale, RGB or RGBA, with or without alpha, not
// interlaced.
import zlib from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS = { 0: 1, 2: 3, 4: 2, 6: 4 };   // colour type -> samples per pixel

function chunks(png) {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  const out = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    out.push({ type: png.toString('latin1', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return out;
}

// Undoes the per-row filters (PNG spec, 9.2) into plain rows of `stride` bytes.
function unfilter(raw, width, height, bpp) {
  const stride = width * bpp;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = rows.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? rows.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride);
    for (let i = 0; i < stride; i++) {
      const left = i >= bpp ? row[i - bpp] : 0, above = up[i], corner = i >= bpp ? up[i - bpp] : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = above;
      else if (filter === 3) predicted = (left + above) >> 1;
      else if (filter === 4) {
        const p = left + above - corner, pa = Math.abs(p - left), pb = Math.abs(p - above), pc = Math.abs(p - corner);
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? above : corner;
      } else if (filter !== 0) throw new Error(`PNG filter ${filter} unknown`);
      row[i] = (line[i] + predicted) & 0xff;
    }
  }
  return rows;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

// The pixels of a PNG: `channels` bytes per pixel, rows top first, no padding.
export function decodePng(png) {
  const all = chunks(png);
  const header = all.find((c) => c.type === 'IHDR').data;
  const [width, height, depth, colour, interlace] =
    [header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9], header[12]];
  if (depth !== 8 || !CHANNELS[colour] || interlace !== 0) throw new Error(`PNG ${depth}-bit, colour type ${colour}, interlace ${interlace}: not read here`);
  const channels = CHANNELS[colour];
  const pixels = unfilter(zlib.inflateSync(Buffer.concat(all.filter((c) => c.type === 'IDAT').map((c) => c.data))),
                          width, height, channels);
  return { width, height, channels, pixels, header };
}

export function cropPng(png, { x, y, width, height }) {
  const { width: fullWidth, height: fullHeight, channels: bpp, pixels: rows, header } = decodePng(png);
  [x, y] = [Math.max(0, Math.round(x)), Math.max(0, Math.round(y))];
  width = Math.min(Math.round(width), fullWidth - x);
  height = Math.min(Math.round(height), fullHeight - y);
  const out = Buffer.alloc((width * bpp + 1) * height);
  for (let row = 0; row < height; row++) {
    rows.copy(out, row * (width * bpp + 1) + 1, ((y + row) * fullWidth + x) * bpp, ((y + row) * fullWidth + x + width) * bpp);
  }
  const ihdr = Buffer.from(header);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(out)), chunk('IEND', Buffer.alloc(0))]);
}

// A PNG of one colour (RGB), for a test to find on a screen.
export function solidPng(width, height, [r, g, b]) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;    // bits per sample
  header[9] = 2;    // RGB
  const row = Buffer.alloc(1 + width * 3);
  for (let i = 0; i < width; i++) row.set([r, g, b], 1 + i * 3);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}
