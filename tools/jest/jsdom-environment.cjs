const { TestEnvironment } = require('jest-environment-jsdom');

/**
 * jsdom with Node's fetch family, so RTK Query runs in component tests as in the browser. AbortController
 * comes along because Node's Request only accepts its own AbortSignal.
 */
class JsdomWithFetch extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of [
      'fetch',
      'Request',
      'Response',
      'Headers',
      'AbortController',
      'AbortSignal',
      'TextEncoder',
      'TextDecoder',
      'structuredClone',
    ]) {
      this.global[name] = globalThis[name];
    }
    // jsdom has no media queries; chart code asks for the pixel ratio through one at load time.
    this.global.matchMedia = (query) => ({
      matches: false,
      media: query,
      addEventListener() {},
      removeEventListener() {},
      addListener() {},
      removeListener() {},
    });
    // Browsers resolve a relative URL against the page; Node's Request needs that done for it.
    const location = this.global.location;
    this.global.Request = class extends Request {
      constructor(input, init) {
        super(typeof input === 'string' ? new URL(input, location.href) : input, init);
      }
    };
  }
}
module.exports = JsdomWithFetch;
