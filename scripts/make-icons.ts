// Every icon size the installers need, from one drawing (build/icon.svg), with sharp.
// Writes build/icon.png (1024 px: electron-builder makes the macOS .icns and Windows .ico from it) and
// build/icons/<n>x<n>.png (the Linux set). Generated files are ignored by git: the SVG is the source.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

export async function makeIcons(svgPath: string, outDir: string): Promise<string[]> {
  await mkdir(path.join(outDir, 'icons'), { recursive: true });
  // Rasterised at the target size (density scales the 32-unit viewBox), not shrunk from one bitmap.
  const render = (size: number, file: string) => sharp(svgPath, { density: Math.ceil((72 * size) / 32) }).resize(size, size).png().toFile(file);
  await render(1024, path.join(outDir, 'icon.png'));
  for (const size of LINUX_SIZES) await render(size, path.join(outDir, 'icons', `${size}x${size}.png`));
  return [path.join(outDir, 'icon.png'), ...LINUX_SIZES.map((s) => path.join(outDir, 'icons', `${s}x${s}.png`))];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const build = fileURLToPath(new URL('../build/', import.meta.url));
  const files = await makeIcons(path.join(build, 'icon.svg'), build);
  console.log(`icons: ${files.length} files in build/`);
}
