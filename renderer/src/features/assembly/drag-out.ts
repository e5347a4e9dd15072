// Dragging a result out of the app, in the browser host: Chromium saves a `DownloadURL` drag
// (`mime:name:url`) as a file where it is dropped (desktop, file manager); other apps take the URL.

/** The drag's data for a result file: what `dataTransfer.setData` gets, type by type. */
export function dragOutData(file: { url: string; name: string; mime?: string | null | undefined }): Record<'DownloadURL' | 'text/uri-list' | 'text/plain', string> {
  // The two colons separate the fields: neither the MIME type nor the name may hold one.
  const mime = file.mime && /^[\w.+-]+\/[\w.+-]+$/.test(file.mime) ? file.mime : 'application/octet-stream';
  const name = file.name.replace(/[:\\/]/g, '_').trim() || 'result';
  return { DownloadURL: `${mime}:${name}:${file.url}`, 'text/uri-list': file.url, 'text/plain': file.url };
}
