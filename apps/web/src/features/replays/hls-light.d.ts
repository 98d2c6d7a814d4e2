// hls.js ships its light build without types of its own; it is the same API as the full build.
declare module 'hls.js/light' {
  export { default } from 'hls.js';
}
