import type { Handlers } from '../ipc/handlers';
import { AppErrorCode, err, ok } from '../../../shared/result';
import { downloadToDir } from '../files/download';
import { thumbnailFromUrl } from '../files/thumbnails';
import type { HandlerContext } from './context';

/** Only http(s): the renderer is untrusted and must not make core read file: or data: URLs. */
const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

export function createResultHandlers(ctx: HandlerContext): Pick<Handlers, 'results:download' | 'results:thumbnail'> {
  return {
    'results:download': async ({ runId, url, name }) => {
      const run = ctx.runs.get(runId);
      if (!run.ok) return run;
      if (!isWebUrl(url)) return err(AppErrorCode.invalidRequest, 'Only http(s) result URLs can be downloaded.');
      try {
        return ok({ path: await downloadToDir(url, ctx.downloadsDir, name) });
      } catch (cause) {
        return err(AppErrorCode.network, `Could not download ${name}: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
    },
    'results:thumbnail': async ({ url, size }) => {
      if (!isWebUrl(url)) return err(AppErrorCode.invalidRequest, 'Only http(s) result URLs can be previewed.');
      try {
        return ok({ dataUrl: await thumbnailFromUrl(url, size) });
      } catch (cause) {
        return err(AppErrorCode.network, `Could not load the preview: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
    },
  };
}
