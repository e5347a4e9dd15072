import { readFile, rm, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

// A real HEIC photo for tests, as a phone writes one: one HEVC frame (ffmpeg's libx265) in a HEIF container
// (ftyp heic, meta with an hvc1 item, its hvcC and ispe, mdat). No library here writes HEIC, so the boxes are
// put together by hand (ISO/IEC 23008-12); libheif reads it (format heif, compression hevc).

const box = (type: string, ...parts: Buffer[]): Buffer => {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const fullBox = (type: string, version: number, ...parts: Buffer[]): Buffer => box(type, u32(version << 24), ...parts);
const u8 = (n: number) => Buffer.from([n]);
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

/** The NAL units of an Annex B stream (00 00 01 / 00 00 00 01 start codes). */
function nalUnits(stream: Buffer): Buffer[] {
  const starts: Array<[number, number]> = [];
  for (let i = 0; i + 3 < stream.length; i++) {
    if (stream[i] === 0 && stream[i + 1] === 0 && stream[i + 2] === 1) starts.push([i, i + 3]);
    else if (stream[i] === 0 && stream[i + 1] === 0 && stream[i + 2] === 0 && stream[i + 3] === 1) starts.push([i, (i += 1) + 3]);
  }
  return starts.map(([, from], k) => stream.subarray(from, k + 1 < starts.length ? starts[k + 1]![0] : stream.length));
}

/** Writes a `width`×`height` HEIC (even sizes) to `path`. */
export async function writeHeic(path: string, width = 64, height = 48): Promise<string> {
  const hevc = `${path}.hevc`;
  await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${width}x${height}:rate=1`, '-frames:v', '1', '-c:v', 'libx265', '-x265-params', 'log-level=none', '-f', 'hevc', hevc]);
  const units = nalUnits(await readFile(hevc));
  await rm(hevc, { force: true });
  const kind = (n: Buffer) => (n[0]! >> 1) & 0x3f;
  const params = units.filter((n) => kind(n) >= 32 && kind(n) <= 34);
  const slices = units.filter((n) => kind(n) < 32);
  const sps = params.find((n) => kind(n) === 33)!;
  const arrays = [32, 33, 34].map((t) => Buffer.concat([u8(0x80 | t), u16(1), ...params.filter((n) => kind(n) === t).map((n) => Buffer.concat([u16(n.length), n]))]));
  // configurationVersion, general profile/tier/level (from the SPS), then fixed fields, then VPS/SPS/PPS.
  const hvcC = box('hvcC', u8(1), sps.subarray(3, 15), u16(0xf000), u8(0xfc), u8(0xfd), u8(0xf8), u8(0xf8), u16(0), u8(0x0f), u8(3), ...arrays);
  const data = Buffer.concat(slices.map((n) => Buffer.concat([u32(n.length), n])));
  const ftyp = box('ftyp', Buffer.from('heic'), u32(0), Buffer.from('mif1heic'));
  const meta = (offset: number) =>
    fullBox(
      'meta',
      0,
      fullBox('hdlr', 0, u32(0), Buffer.from('pict'), u32(0), u32(0), u32(0), u8(0)),
      fullBox('pitm', 0, u16(1)),
      fullBox('iloc', 0, u8(0x44), u8(0), u16(1), u16(1), u16(0), u16(1), u32(offset), u32(data.length)),
      fullBox('iinf', 0, u16(1), fullBox('infe', 2, u16(1), u16(0), Buffer.from('hvc1'), u8(0))),
      box('iprp', box('ipco', hvcC, fullBox('ispe', 0, u32(width), u32(height))), fullBox('ipma', 0, u32(1), u16(1), u8(2), u8(0x81), u8(0x02))),
    );
  const offset = ftyp.length + meta(0).length + 8;
  await writeFile(path, Buffer.concat([ftyp, meta(offset), box('mdat', data)]));
  return path;
}
