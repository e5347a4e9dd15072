// The service's reading of a part's Content-Disposition, for the app's encoder tests (electron/ imports
// only service/index and service/testing). Tests only.
export { readDisposition } from '../http/content-disposition';
