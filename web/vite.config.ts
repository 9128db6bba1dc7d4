import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The SPA is served by the API server from web/dist on the same origin as /trpc, /api and /graphql.
// In development the Vite server proxies those paths to the API server so cookies stay same-origin.
const apiTarget = "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: {
      "/trpc": { target: apiTarget, changeOrigin: false },
      "/api": { target: apiTarget, changeOrigin: false },
      "/graphql": { target: apiTarget, changeOrigin: false, ws: true },
    },
  },
  preview: {
    proxy: {
      "/trpc": { target: apiTarget },
      "/api": { target: apiTarget },
      "/graphql": { target: apiTarget, ws: true },
    },
  },
});
