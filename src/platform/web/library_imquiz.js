// The wasm side of the bridge to web/boot.js (window.ImQuizHost). Linked with --js-library.
// Property names are quoted so the closure compiler leaves them alone.
// Strings going to C are malloc'ed here and freed by the caller (platform_web.cpp).

mergeInto(LibraryManager.library, {
  $imquizString: function (text) {
    if (text === null || text === undefined) return 0;
    var length = lengthBytesUTF8(text) + 1;
    var pointer = _malloc(length);
    if (!pointer) throw new Error('out of memory copying a string into the app');  // crash screen, not a write at 0
    stringToUTF8(text, pointer, length);
    return pointer;
  },
  $imquizHost: function () { return window['ImQuizHost']; },

  imquiz_js_url_parameter__deps: ['$imquizString', '$imquizHost'],
  imquiz_js_url_parameter: function (name) {
    return imquizString(imquizHost()['params']['get'](UTF8ToString(name)));
  },
  imquiz_js_browser_language__deps: ['$imquizString'],
  imquiz_js_browser_language: function () {
    return imquizString(String(navigator.language || 'en').toLowerCase());
  },
  imquiz_js_media_matches: function (query) {
    return window.matchMedia && window.matchMedia(UTF8ToString(query)).matches ? 1 : 0;
  },
  imquiz_js_now_ms: function () { return Date.now(); },
  imquiz_js_random_u32: function () {
    var word = new Uint32Array(1);
    (window.crypto || window['msCrypto']).getRandomValues(word);
    return word[0];
  },
  imquiz_js_viewport: function (width, height, ratio) {
    var canvas = document.getElementById('canvas');
    var rect = canvas.getBoundingClientRect();
    HEAP32[width >> 2] = Math.max(1, Math.round(rect.width));
    HEAP32[height >> 2] = Math.max(1, Math.round(rect.height));
    HEAPF32[ratio >> 2] = window.devicePixelRatio || 1;
  },
  imquiz_js_set_document_info__deps: ['$imquizHost'],
  imquiz_js_set_document_info: function (lang, title) {
    imquizHost()['setDocumentInfo'](UTF8ToString(lang), UTF8ToString(title));
  },

  // Fetch: start returns an id; results queue up until the frame loop takes them.
  $imquizFetch: { next: 1, done: [] },
  imquiz_js_fetch_start__deps: ['$imquizFetch', '$imquizHost'],
  imquiz_js_fetch_start: function (urlPointer) {
    var url = UTF8ToString(urlPointer);
    var id = imquizFetch.next++;
    var host = imquizHost();
    var absolute = new URL(url, location.href).href;
    host['load'](absolute).then(function (result) {
      // A failed answer must not stick: the next request (Retry) goes to the network again.
      if (result['status'] < 200 || result['status'] >= 300) host['forget'](absolute);
      imquizFetch.done.push({ id: id, url: url, status: result['status'], bytes: result['bytes'], error: result['error'] });
      host['wake']();
    });
    return id;
  },
  // Returns the body (malloc'ed, NUL-terminated) and fills id, status, length, url and error.
  imquiz_js_fetch_take__deps: ['$imquizFetch', '$imquizString'],
  imquiz_js_fetch_take: function (idOut, statusOut, lengthOut, urlOut, errorOut) {
    var result = imquizFetch.done.shift();
    if (!result) return 0;
    var bytes = result.bytes;
    var body = _malloc(bytes.length + 1);
    if (!body) throw new Error('out of memory receiving ' + result.url);  // crash screen, not a write at 0
    HEAPU8.set(bytes, body);
    HEAPU8[body + bytes.length] = 0;
    HEAP32[idOut >> 2] = result.id;
    HEAP32[statusOut >> 2] = result.status;
    HEAP32[lengthOut >> 2] = bytes.length;
    HEAP32[urlOut >> 2] = imquizString(result.url);
    HEAP32[errorOut >> 2] = imquizString(result.error);
    return body;
  },

  imquiz_js_storage_get__deps: ['$imquizString', '$imquizHost'],
  imquiz_js_storage_get: function (key) {
    return imquizString(imquizHost()['storage']['get'](UTF8ToString(key)));
  },
  imquiz_js_storage_set__deps: ['$imquizHost'],
  imquiz_js_storage_set: function (key, value) {
    return imquizHost()['storage']['set'](UTF8ToString(key), UTF8ToString(value)) ? 1 : 0;
  },
  imquiz_js_storage_remove__deps: ['$imquizHost'],
  imquiz_js_storage_remove: function (key) {
    return imquizHost()['storage']['remove'](UTF8ToString(key)) ? 1 : 0;
  },
  imquiz_js_storage_keys__deps: ['$imquizString', '$imquizHost'],
  imquiz_js_storage_keys: function () {
    return imquizString(imquizHost()['storage']['keys']().join('\n'));
  },
  imquiz_js_storage_persistent__deps: ['$imquizHost'],
  imquiz_js_storage_persistent: function () { return imquizHost()['storage']['persistent']() ? 1 : 0; },
  imquiz_js_storage_take_changed__deps: ['$imquizString', '$imquizHost'],
  imquiz_js_storage_take_changed: function () {
    var keys = imquizHost()['storage']['takeChanged']();
    return keys.length ? imquizString(keys.join('\n')) : 0;
  },

  imquiz_js_post_to_host__deps: ['$imquizHost'],
  imquiz_js_post_to_host: function (json) { imquizHost()['postToHost'](UTF8ToString(json)); },
  imquiz_js_report_height__deps: ['$imquizHost'],
  imquiz_js_report_height: function (px) { imquizHost()['reportHeight'](px); },
  imquiz_js_download__deps: ['$imquizHost'],
  imquiz_js_download: function (name, text) { imquizHost()['download'](UTF8ToString(name), UTF8ToString(text)); },
  imquiz_js_pick_file__deps: ['$imquizHost'],
  imquiz_js_pick_file: function () { imquizHost()['pickFile'](); },
  imquiz_js_take_picked_file__deps: ['$imquizString', '$imquizHost'],
  imquiz_js_take_picked_file: function () {
    var files = imquizHost()['pickedFiles'];
    return files.length ? imquizString(files.shift()) : 0;
  },
  imquiz_js_publish_state__deps: ['$imquizHost'],
  imquiz_js_publish_state: function (json) { imquizHost()['publishState'](UTF8ToString(json)); },
  imquiz_js_take_page_action__deps: ['$imquizString', '$imquizHost'],
  imquiz_js_take_page_action: function () { return imquizString(imquizHost()['takeAction']()); },
  imquiz_js_signal__deps: ['$imquizHost'],
  imquiz_js_signal: function (name) { imquizHost()['signal'](UTF8ToString(name)); }
});
