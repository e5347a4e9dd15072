// The endpoint→scope map lives in shared/ so the app mints tokens with exactly the scope a request needs.
export { requiredScope } from '../../shared/api/required-scope';
