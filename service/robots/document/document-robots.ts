// The document robots of this folder, spread into robots/robot-registry.ts.

import type { BundleRunner, RobotRunner, SourceRunner } from '../robot-types';
import { runDocumentConvert } from './convert';
import { runHtmlConvert, runHtmlConvertUrl } from './html-convert';
import { runDocumentMerge, runDocumentSplit } from './merge-split';
import { runDocumentOcr, runImageOcr } from './ocr';
import { runDocumentThumbs } from './thumbs';

export const DOCUMENT_FILE_RUNNERS: Record<string, RobotRunner> = {
  '/document/thumbs': runDocumentThumbs,
  '/document/split': runDocumentSplit,
  '/document/ocr': runDocumentOcr,
  '/image/ocr': runImageOcr,
  '/html/convert': runHtmlConvert,
  '/document/convert': runDocumentConvert,
};

export const DOCUMENT_BUNDLE_RUNNERS: Record<string, BundleRunner> = {
  '/document/merge': runDocumentMerge,
};

/** Robots that run without input when a parameter gives it (shared/api/known-robots.ts robotNeedsNoInput). */
export const DOCUMENT_SOURCE_RUNNERS: Record<string, SourceRunner> = {
  '/html/convert': runHtmlConvertUrl,
};
