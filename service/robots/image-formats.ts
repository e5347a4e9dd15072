import sharp from 'sharp';

/**
 * Whether this machine's libvips reads HEIC: its HEIF loader lists `.heic` only when libheif has an HEVC
 * decoder (libde265). sharp's prebuilt libvips has the AV1 one alone (AVIF), so on most machines it does not.
 */
export const canReadHeic = (): boolean => {
  const suffixes = (sharp.format as unknown as Record<string, { input?: { fileSuffix?: string[] } } | undefined>).heif?.input?.fileSuffix ?? [];
  return suffixes.some((s) => s.toLowerCase() === '.heic' || s.toLowerCase() === '.heif');
};
