/** Vite bundles stylesheets a component imports for its side effect (see ActivityLog.tsx). */
declare module '*.css';
