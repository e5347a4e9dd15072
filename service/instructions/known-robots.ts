// Pure module (no Node imports) so the app's instruction editor can share it later via shared/.

/** Robots the local service really runs. Only robots with a working implementation belong here. */
export const KNOWN_ROBOTS = [
  '/upload/handle',
  '/file/filter',
  '/file/hash',
  '/file/read',
  '/file/compress',
  '/image/resize',
  '/image/optimize',
  '/video/thumbs',
  '/video/encode',
  '/audio/encode',
  '/audio/waveform',
] as const;

/** One line per robot, for the instruction editor. */
export const ROBOT_SUMMARIES: Record<KnownRobot, string> = {
  '/upload/handle': 'Receives uploaded files; must be the step named ":original".',
  '/file/filter': 'Passes on or drops files by conditions such as ["${file.mime}", "regex", "image"].',
  '/file/hash': 'Adds a checksum (sha256 by default) of each file as meta.hash.',
  '/file/read': 'Reads a text file (under 500 KB) into meta.content.',
  '/file/compress': 'Packs files into one tar (default) or zip archive.',
  '/image/resize': 'Resizes, crops, pads and converts images (width, height, resize_strategy, format, quality).',
  '/image/optimize': 'Re-compresses images in their own format without making them bigger.',
  '/video/thumbs': 'Extracts thumbnails from videos at evenly spaced points or given offsets.',
  '/video/encode': 'Encodes video to mp4 (H.264 or HEVC), webm (VP9) or gif, sized into a box.',
  '/audio/encode': 'Encodes audio (or the sound of a video) to mp3, aac, ogg, opus, flac or wav.',
  '/audio/waveform': 'Draws the waveform of audio as a PNG, or gives its peaks as JSON.',
};

export type KnownRobot = (typeof KNOWN_ROBOTS)[number];

export const isKnownRobot = (robot: string): robot is KnownRobot =>
  (KNOWN_ROBOTS as readonly string[]).includes(robot);

/** Robots that take no `use` (service-facts §8 "Robots that take no use"): they create files themselves. */
export const robotTakesNoUse = (robot: string): boolean =>
  robot === '/upload/handle' || robot.endsWith('/import') || robot === '/edgly/deliver' || robot === '/tlcdn/deliver';

/** The step name reserved for uploads handled by /upload/handle. */
export const ORIGINAL_STEP = ':original';

/** `/image/resize` -> `IMAGE_RESIZE`, the prefix of the robot's `<ROBOT>_VALIDATION` code. */
export const robotCodePrefix = (robot: string): string =>
  robot.replace(/^\//, '').replace(/[/-]/g, '_').toUpperCase();
