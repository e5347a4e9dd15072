// Minimal streaming writers for tar (ustar, with pax headers for long names) and zip (deflate, data
// descriptors). Pure Node, so archives work on every desktop without a tar or zip binary.

import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { constants, crc32, createDeflateRaw, createGzip } from 'node:zlib';

export interface ArchiveEntry {
  /** Path inside the archive, with forward slashes. */
  name: string;
  localPath: string;
  size: number;
  mtime?: Date;
}

const write = (out: NodeJS.WritableStream, chunk: Buffer): Promise<void> =>
  new Promise((resolve, reject) => {
    if (out.write(chunk)) resolve();
    else {
      out.once('drain', resolve);
      out.once('error', reject);
    }
  });

async function pipeFile(path: string, onChunk: (c: Buffer) => Promise<void> | void, signal: AbortSignal): Promise<void> {
  for await (const chunk of createReadStream(path, { signal })) await onChunk(chunk as Buffer);
}

const finish = (out: NodeJS.WritableStream, file: WriteStream): Promise<void> =>
  new Promise((resolve, reject) => {
    file.once('finish', resolve);
    file.once('error', reject);
    out.end();
  });

function tarHeader(name: string, size: number, mtime: Date, type: '0' | 'x'): Buffer {
  const h = Buffer.alloc(512);
  const field = (value: string, offset: number, length: number) => h.write(value, offset, length, 'utf8');
  const octal = (n: number, offset: number, length: number) => field(n.toString(8).padStart(length - 1, '0') + '\0', offset, length);
  field(name.slice(0, 100), 0, 100);
  octal(0o644, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(Math.floor(mtime.getTime() / 1000), 136, 12);
  h.fill(' ', 148, 156);
  field(type, 156, 1);
  field('ustar\0', 257, 6);
  field('00', 263, 2);
  let sum = 0;
  for (const b of h) sum += b;
  field(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return h;
}

const padding = (size: number): Buffer => Buffer.alloc((512 - (size % 512)) % 512);

/** A pax record "<len> path=<name>\n", where <len> counts itself. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len) len += 1;
  return Buffer.from(`${len}${body}`, 'utf8');
}

export async function writeTar(target: string, entries: ArchiveEntry[], gzip: boolean, signal: AbortSignal): Promise<void> {
  const file = createWriteStream(target);
  const gz = gzip ? createGzip() : null;
  if (gz) gz.pipe(file);
  const out = gz ?? file;
  for (const e of entries) {
    const mtime = e.mtime ?? new Date();
    if (Buffer.byteLength(e.name) > 100 || e.size > 0o77777777777) {
      const pax = Buffer.concat([paxRecord('path', e.name), ...(e.size > 0o77777777777 ? [paxRecord('size', String(e.size))] : [])]);
      await write(out, tarHeader('PaxHeader', pax.length, mtime, 'x'));
      await write(out, Buffer.concat([pax, padding(pax.length)]));
    }
    await write(out, tarHeader(e.name, e.size > 0o77777777777 ? 0 : e.size, mtime, '0'));
    await pipeFile(e.localPath, (c) => write(out, c), signal);
    await write(out, padding(e.size));
  }
  await write(out, Buffer.alloc(1024));
  await finish(out, file);
}

const ZIP_LIMIT = 0xffffffff;

function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((Math.max(1980, d.getFullYear()) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** Zip with deflate; entries over 4 GB are refused (no zip64). */
export async function writeZip(target: string, entries: ArchiveEntry[], level: number, signal: AbortSignal): Promise<void> {
  const tooBig = entries.find((e) => e.size >= ZIP_LIMIT);
  if (tooBig) throw new Error(`"${tooBig.name}" is 4 GB or more; use format "tar" for files that large`);
  const out = createWriteStream(target);
  let offset = 0;
  const put = async (b: Buffer) => {
    await write(out, b);
    offset += b.length;
  };
  const central: Buffer[] = [];
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const { time, date } = dosTime(e.mtime ?? new Date());
    const headerOffset = offset;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0808, 6); // data descriptor follows; names are UTF-8
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt16LE(name.length, 26);
    await put(Buffer.concat([local, name]));
    let crc = 0;
    let compressed = 0;
    const deflate = createDeflateRaw({ level });
    const pending: Promise<void>[] = [];
    deflate.on('data', (c: Buffer) => {
      compressed += c.length;
      pending.push(put(c));
    });
    const ended = new Promise<void>((resolve, reject) => {
      deflate.once('end', resolve);
      deflate.once('error', reject);
    });
    await pipeFile(e.localPath, async (c) => {
      crc = crc32(c, crc);
      if (!deflate.write(c)) await new Promise((r) => deflate.once('drain', r));
    }, signal);
    deflate.end();
    await ended;
    await Promise.all(pending);
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(e.size, 12);
    await put(descriptor);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(0x031e, 4); // made by unix, spec 3.0
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0808, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt16LE(time, 12);
    entry.writeUInt16LE(date, 14);
    entry.writeUInt32LE(crc >>> 0, 16);
    entry.writeUInt32LE(compressed, 20);
    entry.writeUInt32LE(e.size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    entry.writeUInt32LE(headerOffset, 42);
    central.push(Buffer.concat([entry, name]));
    if (offset >= ZIP_LIMIT) throw new Error('the archive is over 4 GB; use format "tar"');
  }
  const dirStart = offset;
  const dir = Buffer.concat(central);
  await put(dir);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(dirStart, 16);
  await put(end);
  await new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
    out.end();
  });
}

export const ZIP_DEFAULT_LEVEL = constants.Z_DEFAULT_COMPRESSION;
