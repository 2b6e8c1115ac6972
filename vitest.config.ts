import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // examples/ import the package by name, as users do; here that is the source.
    alias: [
      {
        find: /^svc-emulator\/testing$/,
        replacement: fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)),
      },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
