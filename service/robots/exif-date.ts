// Reads the recording date from a raw EXIF block (as sharp returns it) without a full EXIF library:
// DateTimeOriginal from the Exif sub-IFD, else DateTime from IFD0.

const TAG_DATETIME = 0x0132;
const TAG_EXIF_IFD = 0x8769;
const TAG_DATETIME_ORIGINAL = 0x9003;

type Entries = Map<number, { type: number; count: number; valueOffset: number }>;

function readIfd(buf: Buffer, tiff: number, offset: number, le: boolean): Entries {
  const entries: Entries = new Map();
  const at = tiff + offset;
  if (at + 2 > buf.length) return entries;
  const n = le ? buf.readUInt16LE(at) : buf.readUInt16BE(at);
  for (let i = 0; i < n; i++) {
    const e = at + 2 + i * 12;
    if (e + 12 > buf.length) break;
    const u16 = (o: number) => (le ? buf.readUInt16LE(o) : buf.readUInt16BE(o));
    const u32 = (o: number) => (le ? buf.readUInt32LE(o) : buf.readUInt32BE(o));
    entries.set(u16(e), { type: u16(e + 2), count: u32(e + 4), valueOffset: u32(e + 8) });
  }
  return entries;
}

function readAscii(buf: Buffer, tiff: number, entry: { type: number; count: number; valueOffset: number } | undefined): string | null {
  if (!entry || entry.type !== 2 || entry.count <= 4) return null;
  const start = tiff + entry.valueOffset;
  if (start + entry.count > buf.length) return null;
  return buf.subarray(start, start + entry.count).toString('latin1').replace(/\0+$/, '');
}

/** "2024:01:02 03:04:05" -> "2024/01/02 03:04:05" (the service's date_recorded format); null if absent. */
export function exifDateRecorded(exif: Buffer | undefined): string | null {
  if (!exif || exif.length < 14) return null;
  try {
    const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0;
    const order = exif.subarray(tiff, tiff + 2).toString('latin1');
    if (order !== 'II' && order !== 'MM') return null;
    const le = order === 'II';
    const ifd0Offset = le ? exif.readUInt32LE(tiff + 4) : exif.readUInt32BE(tiff + 4);
    const ifd0 = readIfd(exif, tiff, ifd0Offset, le);
    const exifPtr = ifd0.get(TAG_EXIF_IFD);
    const sub = exifPtr ? readIfd(exif, tiff, exifPtr.valueOffset, le) : new Map();
    const raw = readAscii(exif, tiff, sub.get(TAG_DATETIME_ORIGINAL)) ?? readAscii(exif, tiff, ifd0.get(TAG_DATETIME));
    const m = raw && /^(\d{4}):(\d{2}):(\d{2}) (\d{2}:\d{2}:\d{2})/.exec(raw);
    return m ? `${m[1]}/${m[2]}/${m[3]} ${m[4]}` : null;
  } catch {
    return null;
  }
}
