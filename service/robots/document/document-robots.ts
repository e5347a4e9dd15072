// The document robots of this folder, spread into robots/robot-registry.ts.

import type { BundleRunner, RobotRunner } from '../robot-types';
import { runDocumentMerge, runDocumentSplit } from './merge-split';
import { runDocumentOcr, runImageOcr } from './ocr';
import { runDocumentThumbs } from './thumbs';

export const DOCUMENT_FILE_RUNNERS: Record<string, RobotRunner> = {
  '/document/thumbs': runDocumentThumbs,
  '/document/split': runDocumentSplit,
  '/document/ocr': runDocumentOcr,
  '/image/ocr': runImageOcr,
};

export const DOCUMENT_BUNDLE_RUNNERS: Record<string, BundleRunner> = {
  '/document/merge': runDocumentMerge,
};
