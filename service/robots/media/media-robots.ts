// The media robots of this folder, spread into robots/robot-registry.ts.

import type { BundleRunner, RobotRunner, SourceRunner } from '../robot-types';
import { runVideoAdaptive } from './adaptive';
import { runAudioConcat, runVideoConcat } from './concat';
import { runImageMerge } from './image-merge';
import { runAudioMerge, runVideoMerge } from './merge';
import { runAudioSplit, runVideoSplit } from './split';
import { runTextSpeak, runTextSpeakPrompt } from './text-speak';

export const MEDIA_FILE_RUNNERS: Record<string, RobotRunner> = {
  '/video/split': runVideoSplit,
  '/audio/split': runAudioSplit,
  '/text/speak': runTextSpeak,
};

export const MEDIA_BUNDLE_RUNNERS: Record<string, BundleRunner> = {
  '/video/concat': runVideoConcat,
  '/audio/concat': runAudioConcat,
  '/video/merge': runVideoMerge,
  '/audio/merge': runAudioMerge,
  '/image/merge': runImageMerge,
  '/video/adaptive': runVideoAdaptive,
};

/** Robots that run without input when a parameter gives it (shared/api/known-robots.ts robotNeedsNoInput). */
export const MEDIA_SOURCE_RUNNERS: Record<string, SourceRunner> = {
  '/text/speak': runTextSpeakPrompt,
};
