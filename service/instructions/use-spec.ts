// The parser lives in shared/ so the app's editors read `use` the same way.
export * from '../../shared/api/use-spec';
