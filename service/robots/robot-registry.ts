// Robot name -> implementation. Every robot in instructions/known-robots.ts must have an entry here
// (a test checks that both lists agree).

import { runAiChat } from './ai-chat';
import { runAudioEncode } from './audio-encode';
import { runAudioWaveform } from './audio-waveform';
import { runFileCompress } from './file-compress';
import { runFileDecompress } from './file-decompress';
import { runFilePreview } from './file-preview';
import { runFileVerify } from './file-verify';
import { runMetaWrite } from './meta-write';
import { runFileHash } from './file-hash';
import { runFileRead } from './file-read';
import { runFileFilter } from './filter-robot';
import { runImageOptimize } from './image-optimize';
import { runImageResize } from './image-resize';
import { runImageDescribe, runSpeechTranscribe } from './model-robots';
import { runFileServe, runUploadHandle } from './pass-through';
import type { BundleRunner, RobotRunner, SourceRunner } from './robot-types';
import { runTransloaditImport } from './transloadit-import';
import { runTransloaditStore } from './transloadit-store';
import { runVideoEncode } from './video-encode';
import { runSftpStore } from './sftp-store';
import { runFtpImport, runFtpStore } from './storage/ftp-robots';
import { runHttpImport } from './storage/http-import';
import { runS3Import } from './storage/s3-import';
import { runS3Store } from './storage/s3-store';
import { S3_PROVIDERS } from './storage/s3-target';
import { runSftpImport } from './storage/sftp-import';
import { runVideoThumbs } from './video-thumbs';
import { DOCUMENT_BUNDLE_RUNNERS, DOCUMENT_FILE_RUNNERS, DOCUMENT_SOURCE_RUNNERS } from './document/document-robots';
import { runImageGenerate } from './image-generate';
import { runTextTranslate } from './text-translate';
import { MEDIA_BUNDLE_RUNNERS, MEDIA_FILE_RUNNERS, MEDIA_SOURCE_RUNNERS } from './media/media-robots';

export const ROBOT_RUNNERS: Record<string, RobotRunner> = {
  '/upload/handle': runUploadHandle,
  '/file/filter': runFileFilter,
  '/file/hash': runFileHash,
  '/file/read': runFileRead,
  '/file/serve': runFileServe,
  '/file/decompress': runFileDecompress,
  '/file/verify': runFileVerify,
  '/file/preview': runFilePreview,
  '/meta/write': runMetaWrite,
  '/image/resize': runImageResize,
  '/image/optimize': runImageOptimize,
  '/video/thumbs': runVideoThumbs,
  '/video/encode': runVideoEncode,
  '/audio/encode': runAudioEncode,
  '/audio/waveform': runAudioWaveform,
  '/sftp/store': runSftpStore,
  '/ftp/store': runFtpStore,
  ...Object.fromEntries(S3_PROVIDERS.map((p) => [`/${p}/store`, runS3Store])),
  '/transloadit/store': runTransloaditStore,
  '/ai/chat': runAiChat,
  '/image/describe': runImageDescribe,
  '/speech/transcribe': runSpeechTranscribe,
  '/text/translate': runTextTranslate,
  ...MEDIA_FILE_RUNNERS,
  ...DOCUMENT_FILE_RUNNERS,
};

/** Robots that take all their inputs at once (see `bundle_steps` and `group_by_original`). */
export const BUNDLE_RUNNERS: Record<string, BundleRunner> = {
  '/file/compress': runFileCompress,
  ...MEDIA_BUNDLE_RUNNERS,
  ...DOCUMENT_BUNDLE_RUNNERS,
};

/** Robots that take no input and bring files in (robots/source-step.ts). */
export const SOURCE_RUNNERS: Record<string, SourceRunner> = {
  '/transloadit/import': runTransloaditImport,
  '/http/import': runHttpImport,
  '/ftp/import': runFtpImport,
  '/sftp/import': runSftpImport,
  ...Object.fromEntries(S3_PROVIDERS.map((p) => [`/${p}/import`, runS3Import])),
  '/image/generate': runImageGenerate,
  ...MEDIA_SOURCE_RUNNERS,
  ...DOCUMENT_SOURCE_RUNNERS,
};
