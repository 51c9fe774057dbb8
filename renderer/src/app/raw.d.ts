/** Vite inlines a file imported with ?raw as a string (the suggested feeds' OPML, see Welcome.tsx). */
declare module '*?raw' {
  const text: string;
  export default text;
}
