/**
 * Codes core answers when the page names something it may not reach. The page is untrusted: it can name
 * only what the user picked (by handle), download only its runs' results, and open only what core saved.
 */
export const BridgeErrorCode = {
  /** The handle was never issued, or has expired (the app restarted, or it sat unused too long). */
  handleUnknown: 'FILE_HANDLE_UNKNOWN',
  /** A relative path that leaves the picked file or folder (`..`, an absolute path, a foreign root). */
  pathOutsidePick: 'PATH_OUTSIDE_PICK',
  /** A result URL the run's status record never gave. */
  urlNotOfRun: 'URL_NOT_OF_RUN',
  /** An external URL that is not https (http only to a loopback workspace), or that carries credentials. */
  urlNotAllowed: 'URL_NOT_ALLOWED',
  /** A path core did not write (only downloads the app made can be opened or shown). */
  pathNotAppWritten: 'PATH_NOT_APP_WRITTEN',
} as const;
