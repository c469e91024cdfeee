// Makes a favicon.ico (16, 32 and 48 px, 32-bit bitmaps with alpha, which every browser and
// Windows read) from an SVG logo, drawn by Debian's Chromium:
//
//   node scripts/favicon.mjs ../templates/logo.svg ../templates/favicon.ico
//
// docgen publishes the result at /favicon.ico (a site's own static/favicon.ico wins over the
// one in templates/). Run it again when the logo changes.

import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [svgPath, icoPath] = process.argv.slice(2);
if (!svgPath || !icoPath) {
  console.error('usage: node scripts/favicon.mjs LOGO.svg OUT.ico');
  process.exit(2);
}
const SIZES = [16, 32, 48];
const svg = readFileSync(svgPath, 'utf8');

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
const page = await browser.newPage();
const images = [];
for (const size of SIZES) {
  // RGBA rows, top down, of the logo drawn at `size` px.
  const rgba = await page.evaluate(
    async ({ svg, size }) => {
      const img = new Image();
      img.src = 'data:image/svg+xml;base64,' + btoa(unescape(encodeURIComponent(svg)));
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = size;
      const ctx = canvas.getContext('2d');
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(img, 0, 0, size, size);
      return Array.from(ctx.getImageData(0, 0, size, size).data);
    },
    { svg, size },
  );
  images.push({ size, bitmap: bmp(size, rgba) });
}
await browser.close();

/** A 32-bit BMP as an ICO holds it: the header says twice the height (image, then mask). */
function bmp(size, rgba) {
  const maskRow = Math.ceil(size / 32) * 4;
  const out = Buffer.alloc(40 + size * size * 4 + maskRow * size);
  out.writeUInt32LE(40, 0);
  out.writeInt32LE(size, 4);
  out.writeInt32LE(size * 2, 8);
  out.writeUInt16LE(1, 12);
  out.writeUInt16LE(32, 14);
  out.writeUInt32LE(0, 16);
  out.writeUInt32LE(size * size * 4 + maskRow * size, 20);
  let o = 40;
  // Bottom-up rows of BGRA.
  for (let y = size - 1; y >= 0; y--) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      out[o++] = rgba[i + 2];
      out[o++] = rgba[i + 1];
      out[o++] = rgba[i];
      out[o++] = rgba[i + 3];
    }
  }
  // The AND mask stays zero: the alpha channel says what is transparent.
  return out;
}

const header = Buffer.alloc(6 + 16 * images.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(images.length, 4);
let offset = header.length;
images.forEach(({ size, bitmap }, i) => {
  const e = 6 + 16 * i;
  header.writeUInt8(size % 256, e);
  header.writeUInt8(size % 256, e + 1);
  header.writeUInt8(0, e + 2);
  header.writeUInt8(0, e + 3);
  header.writeUInt16LE(1, e + 4);
  header.writeUInt16LE(32, e + 6);
  header.writeUInt32LE(bitmap.length, e + 8);
  header.writeUInt32LE(offset, e + 12);
  offset += bitmap.length;
});
writeFileSync(icoPath, Buffer.concat([header, ...images.map((i) => i.bitmap)]));
console.log(`${icoPath}: ${SIZES.join(', ')} px, ${offset} bytes`);
