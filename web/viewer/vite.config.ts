/**
 * The viewer's build: `vite build --config web/viewer/vite.config.ts` (part of `npm run build`)
 * bundles the TypeScript, Cytoscape.js and marked into dist/viewer/, which `cortex serve`
 * serves from memory. Fixed file names (no content hash): the server sends `no-store`, and
 * the server's tests name the files.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../dist/viewer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // One script and one stylesheet: the page loads nothing else and nothing from elsewhere.
    modulePreload: false,
    cssCodeSplit: false,
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      output: {
        entryFileNames: 'app.js',
        chunkFileNames: '[name].js',
        assetFileNames: 'app[extname]',
      },
    },
  },
});
