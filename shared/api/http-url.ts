// shared/ has neither DOM nor Node types (no `URL`): an http(s) URL by its shape. Pure.

/** `http://` or `https://`, a host (optionally `user@`, `:port`, `[v6]`), then nothing or a path, query or hash; no spaces. */
const HTTP_URL = /^https?:\/\/(?:[^\s/?#@]+@)?(?:\[[0-9a-f:.]+\]|[^\s/?#:@[\]]+)(?::\d{1,5})?(?:[/?#]\S*)?$/i;

export const isHttpUrl = (v: unknown): v is string => typeof v === 'string' && HTTP_URL.test(v);
