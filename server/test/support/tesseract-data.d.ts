// @tesseract.js-data/eng ships no types: where its English data is, and that it is gzipped.
declare module "@tesseract.js-data/eng" {
  const eng: { code: string; gzip: boolean; langPath: string };
  export default eng;
}
