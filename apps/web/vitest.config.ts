import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { buildConstants } from './vite.config.ts';

export default defineProject({
  plugins: [react()],
  define: buildConstants,
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    // A findBy may wait 5 s on a busy machine (setup.ts); a test holding two must not be cut off first.
    testTimeout: 30_000,
    isolate: false,
  },
});
