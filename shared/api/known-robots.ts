// Robot names shared by the local service (what it runs) and the app's editors (what exists at all).

/** Robots the local service really runs. Only robots with a working implementation belong here. */
export const KNOWN_ROBOTS = [
  '/upload/handle',
  '/file/filter',
  '/file/hash',
  '/file/read',
  '/file/compress',
  '/file/serve',
  '/file/decompress',
  '/file/verify',
  '/file/preview',
  '/meta/write',
  '/image/resize',
  '/image/optimize',
  '/video/thumbs',
  '/video/encode',
  '/audio/encode',
  '/audio/waveform',
  '/sftp/store',
  '/sftp/import',
  '/ftp/store',
  '/ftp/import',
  '/http/import',
  '/s3/store',
  '/s3/import',
  '/minio/store',
  '/minio/import',
  '/wasabi/store',
  '/wasabi/import',
  '/digitalocean/store',
  '/digitalocean/import',
  '/backblaze/store',
  '/backblaze/import',
  '/cloudflare/store',
  '/cloudflare/import',
  '/tigris/store',
  '/tigris/import',
  '/transloadit/store',
  '/transloadit/import',
  '/ai/chat',
  '/image/describe',
  '/speech/transcribe',
  '/text/translate',
  '/image/generate',
  // Media (service/robots/media/).
  '/video/concat',
  '/audio/concat',
  '/video/merge',
  '/audio/merge',
  '/image/merge',
  '/video/split',
  '/audio/split',
  '/video/adaptive',
  '/text/speak',
  // Documents (service/robots/document/).
  '/document/thumbs',
  '/document/merge',
  '/document/split',
  '/document/ocr',
  '/image/ocr',
  '/html/convert',
  '/document/convert',
] as const;

/** One line per robot, for the instruction editor. */
export const ROBOT_SUMMARIES: Record<KnownRobot, string> = {
  '/upload/handle': 'Receives uploaded files; must be the step named ":original".',
  '/file/filter': 'Passes on or drops files by conditions such as ["${file.mime}", "regex", "image"].',
  '/file/hash': 'Adds a checksum (sha256 by default) of each file as meta.hash.',
  '/file/read': 'Reads a text file (under 500 KB) into meta.content.',
  '/file/compress': 'Packs files into one tar (default) or zip archive.',
  '/file/serve': 'Smart CDN: passes its input on as the file a CDN URL serves; cache_duration (seconds) is how long caches may keep it.',
  '/file/decompress': 'Unpacks zip, tar, tar.gz and gzip archives into their files (meta.relative_path); refuses entries or links leading outside the archive and archive bombs.',
  '/file/verify': 'Passes on a file only when its bytes really are verify_to_be (a kind such as image, a type such as pdf, or a media type); error_on_decline fails the Assembly instead.',
  '/file/preview': 'One preview image for any file (300 × 200 png): an image, a video frame or clip, an audio waveform or artwork, a PDF page, else an icon with the extension.',
  '/meta/write': 'Writes data_to_write (ExifTool tags such as Copyright, Artist, Title) into a copy of each image, video or audio file.',
  '/image/resize': 'Resizes, crops, pads and converts images (width, height, resize_strategy, format, quality).',
  '/image/optimize': 'Re-compresses images in their own format without making them bigger.',
  '/video/thumbs': 'Extracts thumbnails from videos at evenly spaced points or given offsets.',
  '/video/encode': 'Encodes video to mp4 (H.264 or HEVC), webm (VP9) or gif, sized into a box.',
  '/audio/encode': 'Encodes audio (or the sound of a video) to mp3, aac, ogg, opus, flac or wav.',
  '/audio/waveform': 'Draws the waveform of audio as a PNG, or gives its peaks as JSON.',
  '/sftp/store': 'Stores files on an SFTP server, with Template credentials (credentials) or host, user and password or private_key.',
  '/sftp/import': 'Imports a file, or a folder\'s files (path ending in /; recursive), from an SFTP server, with Template credentials or host, user and password or private_key.',
  '/ftp/store': 'Stores files on an FTP server at path (secure: FTPS), with Template credentials (credentials) or host, user and password.',
  '/ftp/import': 'Imports a file, or a folder\'s files (path ending in /), from an FTP server, with Template credentials or host, user and password.',
  '/http/import': 'Imports files from http(s) URLs (url: one, a list, or url_delimiter-separated), with headers, max_file_size and range; no private-network addresses.',
  '/s3/store': 'Stores files in an S3 bucket at path (acl, headers, tags, sign_urls_for), with Template credentials or bucket, bucket_region, key and secret; host for S3-compatible stores.',
  '/s3/import': 'Imports an object, or a folder\'s objects (path ending in /; recursive, files_per_page), from an S3 bucket, with Template credentials or bucket, bucket_region, key and secret.',
  '/minio/store': 'Stores files in a MinIO bucket (host, bucket, key, secret), like /s3/store.',
  '/minio/import': 'Imports objects from a MinIO bucket (host, bucket, key, secret), like /s3/import.',
  '/wasabi/store': 'Stores files in a Wasabi bucket (bucket, bucket_region, key, secret), like /s3/store.',
  '/wasabi/import': 'Imports objects from a Wasabi bucket (bucket, bucket_region, key, secret), like /s3/import.',
  '/digitalocean/store': 'Stores files in a DigitalOcean Space (space, region, key, secret), like /s3/store.',
  '/digitalocean/import': 'Imports objects from a DigitalOcean Space (space, region, key, secret), like /s3/import.',
  '/backblaze/store': 'Stores files in a Backblaze B2 bucket through its S3 endpoint (bucket, app_key_id, app_key, and host or bucket_region), like /s3/store.',
  '/backblaze/import': 'Imports objects from a Backblaze B2 bucket through its S3 endpoint (bucket, app_key_id, app_key, and host or bucket_region), like /s3/import.',
  '/cloudflare/store': 'Stores files in a Cloudflare R2 bucket (host, bucket, key, secret), like /s3/store.',
  '/cloudflare/import': 'Imports objects from a Cloudflare R2 bucket (host, bucket, key, secret), like /s3/import.',
  '/tigris/store': 'Stores files in a Tigris bucket (bucket, key, secret), like /s3/store.',
  '/tigris/import': 'Imports objects from a Tigris bucket (bucket, key, secret), like /s3/import.',
  '/transloadit/store': 'Keeps files as stored assets at path (default the file name); conflict_strategy error, rename or overwrite (a new version).',
  '/transloadit/import': 'Brings stored assets into the Assembly by asset_ids (with optional version_ids) and/or paths.',
  '/image/describe': 'Labels what an image shows (granularity full: with confidence; format json, text or meta), through the model server configured for /ai/chat.',
  '/speech/transcribe': 'Transcribes speech in audio or video (format json, text, srt, webvtt or meta), through the model server configured for /ai/chat (its /audio/transcriptions).',
  '/text/translate': 'Translates text files (text/*: plain text, Markdown, subtitles) into target_language, through the chat model configured for /ai/chat.',
  '/image/generate': 'Makes images from prompt (num_outputs, width, height, format png, jpg or webp), through the model server configured for /ai/chat (its /images/generations).',
  '/ai/chat': 'Asks a chat model about each input (messages, system_message, format json or text, schema); mcp_servers lend it tools.',
  '/video/concat': 'Joins videos one after another (order: as video_1, video_2…, else by name), with fades, crossfade or fade_to_black transitions and chapter markers; H.264/AAC MP4.',
  '/audio/concat': 'Joins audio files one after another (order: as audio_1, audio_2…, else by name), with fades or a crossfade between them; mp3 unless preset says otherwise.',
  '/video/merge': 'Makes a video of images and an audio track (image_durations, duration, framerate), or adds an audio track to a video (replace_audio, audio_delay, loop).',
  '/audio/merge': 'Mixes audio files into one (duration first, longest or shortest; volume average or sum; loop).',
  '/image/merge': 'Puts images side by side, one under another or in a grid (direction, columns, rows, border, background) as one png, jpg or webp.',
  '/video/split': 'Cuts a video into one file per segment ({from, to} in seconds or timecodes).',
  '/audio/split': 'Cuts audio into one file per segment ({from, to} in seconds or timecodes).',
  '/video/adaptive': 'Packages renditions for adaptive streaming: HLS (playlist.m3u8), MPEG-DASH (playlist.mpd) or CMAF (both), segments of segment_duration seconds, each file with meta.relative_path.',
  '/text/speak': 'Reads prompt (or each text file) aloud as an MP3 with espeak-ng: target_language (BCP-47), voice, ssml.',
  '/document/thumbs': 'One image per PDF page (page, page_range; png, jpg or one animated gif), whitespace trimmed, fitted into width × height; meta.thumb_index from 0.',
  '/document/merge': 'Joins PDFs into one (order: as document_1, document_2…, else by name).',
  '/document/split': 'Keeps the pages of a PDF that pages selects ("5", "5-10", a list) as one new PDF.',
  '/document/ocr': 'Reads the text of every PDF page with Tesseract (format json: lines with page, confidence and box; list; text; meta: meta.recognized_text).',
  '/image/ocr': 'Reads the text of an image with Tesseract (format json: lines with confidence and box; list; text; meta: meta.recognized_text).',
  '/html/convert': 'Draws a web page (url, no input needed) or each HTML file with headless Chromium as png, jpg or pdf (width, height, fullpage, delay, wait_until, headers); URLs through the service\'s address policy.',
  '/document/convert': 'Converts each file into format: HTML or text to pdf, png or jpg (Chromium; pdf_format, pdf_margin, header and footer), SubRip ↔ WebVTT, and office files (Word, Excel, PowerPoint, OpenDocument) to pdf or each other where LibreOffice is installed.',
};

export type KnownRobot = (typeof KNOWN_ROBOTS)[number];

/** Robots that connect to servers the step or its files name (storage, imports, HTML's pictures): never run by the fuzzers. */
export const reachesOtherServers = (robot: string): boolean =>
  /^\/(sftp|ftp|http|s3|minio|wasabi|digitalocean|backblaze|cloudflare|tigris)\/(store|import)$/.test(robot) || robot === '/html/convert' || robot === '/document/convert';

/**
 * Robots that need a model, run here through the operator's OpenAI-compatible model server (the one
 * /ai/chat uses): without one configured a step naming them is refused at creation (`<ROBOT>_NOT_CONFIGURED`).
 */
export const MODEL_SERVER_ROBOTS: readonly string[] = ['/image/describe', '/speech/transcribe', '/text/translate', '/image/generate'];

/**
 * Robots that need a model the OpenAI-compatible API has no request for (background removal, upscaling,
 * face boxes…): the vendor's hosted service runs them; here a step naming one is refused at creation
 * with `<ROBOT>_MODEL_NOT_OFFERED`, never as an unknown robot. What each would need, said to the user.
 */
export const MODELS_NOT_OFFERED: Readonly<Record<string, string>> = {
  '/image/bgremove': 'a background-removal model',
  '/image/upscale': 'an upscaling model (Real-ESRGAN, GFPGAN, CodeFormer)',
  '/image/enhance': 'an image-enhancement model',
  '/image/facedetect': 'a face-detection model',
  '/image/copyrightdetect': 'a copyright-detection model',
  '/video/generate': 'a video-generation model',
};

export const isKnownRobot = (robot: string): robot is KnownRobot =>
  (KNOWN_ROBOTS as readonly string[]).includes(robot);

/** Robots that take no `use` (service-facts §8 "Robots that take no use"): they create files themselves. */
export const robotTakesNoUse = (robot: string): boolean =>
  robot === '/upload/handle' || robot.endsWith('/import') || robot === '/edgly/deliver' || robot === '/tlcdn/deliver';

/** Robots that need no input (service-facts §8 `botNeedsInput`): /image/generate, /text/speak with `prompt`, /html/convert with `url`. */
export const robotNeedsNoInput = (robot: string, step: Record<string, unknown>): boolean =>
  robot === '/image/generate' || (robot === '/text/speak' && typeof step.prompt === 'string' && step.prompt !== '') || (robot === '/html/convert' && typeof step.url === 'string' && step.url !== '');

/** The step name reserved for uploads handled by /upload/handle. */
export const ORIGINAL_STEP = ':original';

/** `/image/resize` -> `IMAGE_RESIZE`, the prefix of the robot's `<ROBOT>_VALIDATION` code. */
export const robotCodePrefix = (robot: string): string =>
  robot.replace(/^\//, '').replace(/[/-]/g, '_').toUpperCase();

/**
 * Every robot the real service has (service-facts.md §8 "Full list", plus the hidden and internal ones):
 * a name outside this list is a typo. Names in it that the local service does not run are fine for
 * remote workspaces.
 */
export const ALL_ROBOTS: readonly string[] = `
/azure/import /backblaze/import /box/import /cloudfiles/import /cloudflare/import /digitalocean/import /dropbox/import
/ftp/import /google/import /http/import /mega/import /minio/import /s3/import /sftp/import /supabase/import /swift/import
/tigris/import /vimeo/import /wasabi/import
/azure/store /backblaze/store /box/store /cloudfiles/store /cloudflare/store /digitalocean/store /dropbox/store /ftp/store
/google/store /mega/store /minio/store /s3/store /sftp/store /supabase/store /swift/store /tigris/store /tus/store
/vimeo/store /wasabi/store /youtube/store
/image/resize /image/optimize /image/merge /image/bgremove /image/upscale /image/generate /image/enhance /image/describe
/image/facedetect /image/ocr /image/copyrightdetect
/video/encode /video/thumbs /video/adaptive /video/merge /video/concat /video/split /video/subtitle /video/artwork
/video/generate /video/ondemand /audio/encode /audio/waveform /audio/concat /audio/merge /audio/loop /audio/split
/audio/artwork
/document/thumbs /document/convert /document/merge /document/split /document/ocr /document/optimize /document/autorotate
/html/convert
/file/filter /file/compress /file/decompress /file/hash /file/read /file/serve /file/preview /file/verify /file/virusscan
/upload/handle /meta/write /script/run /speech/transcribe /text/speak /text/translate /ai/chat /tlcdn/deliver
/file/watermark /meta/read /progress/simulate /assembly/savejson /document/extract
/transloadit/store /transloadit/import
`
  .split(/\s+/)
  .filter(Boolean);

export const isRealRobot = (robot: string): boolean => ALL_ROBOTS.includes(robot) || (KNOWN_ROBOTS as readonly string[]).includes(robot);
