export * from './result';
export * from './api/codes';
export * from './api/assembly-status';
export * from './api/instructions';
export * from './api/presets';
export * from './ipc/models';
export * from './ipc/contract';
export * from './ipc/bridge';
