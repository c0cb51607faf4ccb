export * from './common.js';
export * from './limits.js';
export * from './auth.js';
export * from './client-config.js';
export * from './maps.js';
export * from './projects.js';
export * from './uploads.js';
export * from './users.js';
