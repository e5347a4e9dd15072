// The list lives in shared/ so the app's editors check robots the same way.
export * from '../../shared/api/known-robots';
