// Test helpers: zip and tar archives written byte by byte, so a test can put in them what no well-behaved
// archiver would — `../` names, absolute paths, links out of the folder, encrypted flags (used by *.test.ts only).

import { crc32 } from 'node:zlib';

export interface ArchiveEntry {
  name: string;
  data?: Buffer | string;
  /** A symbolic link to this target (its data is the target). */
  link?: string;
  /** Marks the zip entry encrypted (the bytes stay plain: the flag alone must stop the robot). */
  encrypted?: boolean;
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

/** A zip of stored (uncompressed) entries, made on "Unix" so each entry carries its mode. */
export function makeZip(entries: readonly ArchiveEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const data = Buffer.from(e.link ?? e.data ?? '');
    const crc = crc32(data);
    // Bit 11: the name is UTF-8. Bit 0: encrypted.
    const flags = 0x0800 | (e.encrypted ? 1 : 0);
    const mode = e.link !== undefined ? 0o120777 : e.name.endsWith('/') ? 0o040755 : 0o100644;
    // An encrypted stored entry starts with ZipCrypto's 12-byte header (here zeros: no one decrypts it).
    const stored = e.encrypted ? Buffer.concat([Buffer.alloc(12), data]) : data;
    const common = Buffer.concat([u16(flags), u16(0), u16(0), u16(0x21), u32(crc), u32(stored.length), u32(data.length), u16(name.length), u16(0)]);
    const local = Buffer.concat([u32(0x04034b50), u16(20), common, name, stored]);
    centrals.push(Buffer.concat([u32(0x02014b50), u16((3 << 8) | 20), u16(20), common, u16(0), u16(0), u16(0), u32(mode << 16), u32(offset), name]));
    locals.push(local);
    offset += local.length;
  }
  const central = Buffer.concat(centrals);
  const end = Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(entries.length), u16(entries.length), u32(central.length), u32(offset), u16(0)]);
  return Buffer.concat([...locals, central, end]);
}

function tarHeader(name: string, size: number, type: string, linkname = ''): Buffer {
  const h = Buffer.alloc(512);
  const put = (s: string, at: number, len: number) => Buffer.from(s, 'utf8').copy(h, at, 0, len);
  const octal = (n: number, len: number) => `${n.toString(8).padStart(len - 1, '0')}\0`;
  put(name, 0, 100);
  put(octal(type === '5' ? 0o755 : 0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(0, 12), 136, 12);
  put('        ', 148, 8);
  put(type, 156, 1);
  put(linkname, 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const b of h) sum += b;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return h;
}

/** A ustar archive: files, folders (a name ending in "/") and symbolic links. */
export function makeTar(entries: readonly ArchiveEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    if (e.link !== undefined) {
      parts.push(tarHeader(e.name, 0, '2', e.link));
      continue;
    }
    if (e.name.endsWith('/')) {
      parts.push(tarHeader(e.name, 0, '5'));
      continue;
    }
    const data = Buffer.from(e.data ?? '');
    parts.push(tarHeader(e.name, data.length, '0'), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
