import { existsSync } from 'node:fs';
import path from 'node:path';
import type { SelectedFile } from '../../../shared/ipc/models';
import type { Handlers } from '../ipc/handlers';
import { AppErrorCode, err, ok } from '../../../shared/result';
import type { FileHandleRegistry } from '../files/file-handles';
import { scanPaths } from '../files/folder-scanner';
import { resolvePickedFile } from '../files/picked-path';
import { previewFile } from '../files/thumbnails';
import type { HandlerContext } from './context';

/** The page names picked files by handle (see files/file-handles.ts); core alone knows their paths. */
export function createFileHandlers(ctx: HandlerContext): Pick<Handlers, 'files:scan' | 'files:thumbnail'> {
  return {
    'files:scan': async ({ handles }) => {
      const roots: { handle: string; root: string }[] = [];
      for (const handle of new Set(handles)) {
        const root = ctx.files.root(handle);
        if (!root.ok) return root;
        roots.push({ handle, root: root.value });
      }
      // What the host could not take (the browser host: files the page could not read), listed with the rest.
      const notes = roots.flatMap((r) => ctx.files.takeUnreadable(r.handle).map((n) => ({ ...n, root: r.root })));
      const noted = new Set(notes.map((n) => n.root));
      const scan = await scanPaths(roots.map((r) => r.root).filter((root) => !noted.has(root) || existsSync(root)));
      const shown = (absolute: string) => shownPathOf(ctx.files, roots, absolute);
      const files: SelectedFile[] = [];
      for (const file of scan.files) {
        const where = shown(file.path);
        if (where) files.push({ handle: where.handle, relativePath: where.relativePath, name: lastSegment(where.relativePath), size: file.size, mime: file.mime });
      }
      const skipped = [
        ...notes.map((n) => ({ relativePath: n.relativePath, reason: n.reason })),
        ...scan.skipped.map((s) => ({ relativePath: shown(s.path)?.relativePath ?? path.basename(s.path), reason: s.reason })),
      ];
      return ok({ files, skipped, totalBytes: scan.totalBytes });
    },
    'files:thumbnail': async ({ handle, relativePath, size }) => {
      const file = await resolvePickedFile(ctx.files, handle, relativePath);
      if (!file.ok) return file;
      try {
        return ok(await previewFile(file.value, size));
      } catch (cause) {
        return err(AppErrorCode.fileUnreadable, `Could not read ${relativePath}: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
    },
  };
}

/** The handle and the relative path the user sees for a path the scanner found below one of the roots. */
function shownPathOf(files: FileHandleRegistry, roots: readonly { handle: string; root: string }[], absolute: string) {
  for (const { handle, root } of roots) {
    const inside = path.relative(root, absolute);
    if (inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) continue;
    const disk = path.relative(path.dirname(root), absolute).split(path.sep).join('/');
    return { handle, relativePath: files.shownAs(handle, disk) };
  }
  return null;
}

const lastSegment = (relativePath: string) => relativePath.slice(relativePath.lastIndexOf('/') + 1);
