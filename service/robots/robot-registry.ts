// Robot name -> implementation. Every robot in instructions/known-robots.ts must have an entry here
// (a test checks that both lists agree).

import { runAiChat } from './ai-chat';
import { runAudioEncode } from './audio-encode';
import { runAudioWaveform } from './audio-waveform';
import { runFileCompress } from './file-compress';
import { runFileHash } from './file-hash';
import { runFileRead } from './file-read';
import { runFileFilter } from './filter-robot';
import { runImageOptimize } from './image-optimize';
import { runImageResize } from './image-resize';
import { runFileServe, runUploadHandle } from './pass-through';
import type { BundleRunner, RobotRunner, SourceRunner } from './robot-types';
import { runTransloaditImport } from './transloadit-import';
import { runTransloaditStore } from './transloadit-store';
import { runVideoEncode } from './video-encode';
import { runSftpStore } from './sftp-store';
import { runVideoThumbs } from './video-thumbs';

export const ROBOT_RUNNERS: Record<string, RobotRunner> = {
  '/upload/handle': runUploadHandle,
  '/file/filter': runFileFilter,
  '/file/hash': runFileHash,
  '/file/read': runFileRead,
  '/file/serve': runFileServe,
  '/image/resize': runImageResize,
  '/image/optimize': runImageOptimize,
  '/video/thumbs': runVideoThumbs,
  '/video/encode': runVideoEncode,
  '/audio/encode': runAudioEncode,
  '/audio/waveform': runAudioWaveform,
  '/sftp/store': runSftpStore,
  '/transloadit/store': runTransloaditStore,
  '/ai/chat': runAiChat,
};

/** Robots that take all their inputs at once (see `bundle_steps` and `group_by_original`). */
export const BUNDLE_RUNNERS: Record<string, BundleRunner> = {
  '/file/compress': runFileCompress,
};

/** Robots that take no input and bring files in (robots/source-step.ts). */
export const SOURCE_RUNNERS: Record<string, SourceRunner> = {
  '/transloadit/import': runTransloaditImport,
};
