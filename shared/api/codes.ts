/** Assembly `ok` codes, event names and error codes as the real service uses them (service-facts.md §4, §5, §9). */

export const AssemblyOk = {
  uploading: 'ASSEMBLY_UPLOADING',
  executing: 'ASSEMBLY_EXECUTING',
  replaying: 'ASSEMBLY_REPLAYING',
  completed: 'ASSEMBLY_COMPLETED',
  canceled: 'ASSEMBLY_CANCELED',
  requestAborted: 'REQUEST_ABORTED',
} as const;
export type AssemblyOkCode = (typeof AssemblyOk)[keyof typeof AssemblyOk];

/** Busy states: anything else (or an `error`) is terminal. */
export const BUSY_OK_CODES: readonly string[] = [AssemblyOk.uploading, AssemblyOk.executing, AssemblyOk.replaying];

export const isAssemblyBusy = (status: { ok?: string | null; error?: string | null }): boolean =>
  !status.error && typeof status.ok === 'string' && BUSY_OK_CODES.includes(status.ok);

/** SSE: unnamed `data:` messages and named events with JSON data (service-facts.md §5). */
export const SseMessage = {
  uploadMetaDataExtracted: 'assembly_upload_meta_data_extracted',
  uploadingFinished: 'assembly_uploading_finished',
  finished: 'assembly_finished',
} as const;
export const SseEvent = {
  uploadFinished: 'assembly_upload_finished',
  resultFinished: 'assembly_result_finished',
  executionProgress: 'assembly_execution_progress',
  error: 'assembly_error',
} as const;

/** Error codes the app and the local service both name. New codes may appear: never switch exhaustively on these. */
export const ErrorCode = {
  invalidSignature: 'INVALID_SIGNATURE',
  noSignatureField: 'NO_SIGNATURE_FIELD',
  signatureReuse: 'SIGNATURE_REUSE_DETECTED',
  authExpired: 'AUTH_EXPIRED',
  noAuthExpires: 'NO_AUTH_EXPIRES_PARAMETER',
  invalidAuthExpires: 'INVALID_AUTH_EXPIRES_PARAMETER',
  unknownAuthKey: 'GET_ACCOUNT_UNKNOWN_AUTH_KEY',
  noParams: 'NO_PARAMS_FIELD',
  invalidParams: 'INVALID_PARAMS_FIELD',
  noObjectParams: 'NO_OBJECT_PARAMS_FIELD',
  noAuth: 'NO_AUTH_PARAMETER',
  noAuthKey: 'NO_AUTH_KEY_PARAMETER',
  invalidMaxSize: 'INVALID_AUTH_MAX_SIZE_PARAMETER',
  invalidMaxFiles: 'INVALID_AUTH_MAX_NUMBER_OF_FILES_PARAMETER',
  invalidReferer: 'INVALID_AUTH_REFERER_PARAMETER',
  refererMismatch: 'REFERER_MISMATCH',
  maxSizeExceeded: 'MAX_SIZE_EXCEEDED',
  maxFilesExceeded: 'MAX_NUMBER_OF_FILES_EXCEEDED',
  rateLimit: 'RATE_LIMIT_REACHED',
  assemblyNotFound: 'ASSEMBLY_NOT_FOUND',
  noSteps: 'ASSEMBLY_NO_STEPS',
  emptySteps: 'ASSEMBLY_EMPTY_STEPS',
  invalidSteps: 'ASSEMBLY_INVALID_STEPS',
  stepNoRobot: 'ASSEMBLY_STEP_NO_ROBOT',
  unknownRobot: 'ASSEMBLY_STEP_UNKNOWN_ROBOT',
  unknownUse: 'ASSEMBLY_STEP_UNKNOWN_USE',
  invalidUse: 'ASSEMBLY_STEP_INVALID_USE',
  infinite: 'ASSEMBLY_INFINITE',
  invalidStepName: 'INVALID_STEP_NAME',
  invalidUploadHandleStepName: 'INVALID_UPLOAD_HANDLE_STEP_NAME',
  invalidNumExpected: 'ASSEMBLY_INVALID_NUM_EXPECTED_UPLOAD_FILES_PARAM',
  doNotReuseIds: 'DO_NOT_REUSE_ASSEMBLY_IDS',
  assemblyCrashed: 'ASSEMBLY_CRASHED',
  invalidFormData: 'INVALID_FORM_DATA',
  invalidInput: 'INVALID_INPUT_ERROR',
  fileFilterDeclined: 'FILE_FILTER_DECLINED_FILE',
  fileFilterInvalidOperator: 'FILE_FILTER_INVALID_OPERATOR',
  imageResizeValidation: 'IMAGE_RESIZE_VALIDATION',
  billInvalidDate: 'BILL_INVALID_DATE',
  assemblyStatsError: 'ASSEMBLY_STATS_ERROR',
  assemblyStatsInvalidTime: 'ASSEMBLY_STATS_INVALID_TIME',
  assemblyStatsMissingRegion: 'ASSEMBLY_STATS_MISSING_REGION',
  server404: 'SERVER_404',
  server500: 'SERVER_500',
} as const;

/** Job slots and their statistics (service-facts.md §7; GET /queues/job_slots, GET /priority_job_slot_stats). */
export const QueueCode = {
  jobSlotsFound: 'PRIORITY_JOB_SLOTS_FOUND',
  slotStatsFound: 'PRIORITY_JOB_SLOT_STATS_FOUND',
  slotStatsError: 'PRIORITY_JOB_SLOT_STATS_ERROR',
  slotStatsInvalidAggregation: 'PRIORITY_JOB_SLOT_STATS_INVALID_AGGREGATION',
  slotStatsInvalidTime: 'PRIORITY_JOB_SLOT_STATS_INVALID_TIME',
  slotStatsMissingRegion: 'PRIORITY_JOB_SLOT_STATS_MISSING_REGION',
} as const;
