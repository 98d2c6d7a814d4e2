import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress-plugin.ts';

// The API server serves /api, chat history (/find), uploaded images (/uploads) and the chat socket (/ws).
// In development Vite forwards them so the app can use same-origin relative URLs everywhere.
const API_TARGET = process.env.SEA_API_TARGET ?? 'http://127.0.0.1:5000';

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': API_TARGET,
      '/find': API_TARGET,
      '/uploads': API_TARGET,
      '/ws': { target: API_TARGET, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Small SVGs (avatars, icons) are inlined; banners and fonts stay separate files the browser caches.
    assetsInlineLimit: 2048,
    // The API server reads the manifest to preload a catalogue page's own chunks with its HTML.
    manifest: true,
  },
});
