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
  imquiz_js_development_bank_url__deps: ['$imquizString', '$imquizHost'],
  imquiz_js_development_bank_url: function () {
    return imquizString(imquizHost()['developmentBankUrl'] || null);
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
    function arrived(result) {
      // A failed answer must not stick: the next request (Retry) goes to the network again.
      if (result['status'] < 200 || result['status'] >= 300) host['forget'](absolute);
      imquizFetch.done.push({ id: id, url: url, status: result['status'], bytes: result['bytes'], error: result['error'] });
      host['wake']();
    }
    // Already here (boot.js's head start): taken in this very frame.
    var ready = host['loaded'](absolute);
    if (ready) arrived(ready);
    else host['load'](absolute).then(arrived);
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
  imquiz_js_open_link__deps: ['$imquizHost'],
  imquiz_js_open_link: function (url) { imquizHost()['openLink'](UTF8ToString(url)); },
  imquiz_js_copy_text__deps: ['$imquizHost'],
  imquiz_js_copy_text: function (text) { imquizHost()['copyText'](UTF8ToString(text)); },
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
  imquiz_js_signal: function (name) { imquizHost()['signal'](UTF8ToString(name)); },

  // The Markdown module (boot.js fetches it on the first call). 0 loading, 1 ready, 2 failed
  // (then *errorOut: why, malloc'ed).
  imquiz_js_markdown_prepare__deps: ['$imquizString', '$imquizHost'],
  imquiz_js_markdown_prepare: function (errorOut) {
    var state = imquizHost()['markdown']['prepare']();
    HEAP32[errorOut >> 2] = state['failed'] ? imquizString(state['failed']) : 0;
    return state['ready'] ? 1 : state['failed'] ? 2 : 0;
  },
  imquiz_js_open_rich_player__deps: ['$imquizHost'],
  imquiz_js_open_rich_player: function () { return imquizHost()['openRichPlayer']() ? 1 : 0; },
  // The module's answer for a text, copied into this heap (malloc'ed; *sizeOut bytes).
  imquiz_js_markdown_read__deps: ['$imquizHost'],
  imquiz_js_markdown_read: function (text, size, sizeOut) {
    var answer = imquizHost()['markdown']['read'](HEAPU8.subarray(text, text + size));
    if (!answer) return 0;
    var pointer = _malloc(answer.length + 1);
    if (!pointer) throw new Error('out of memory receiving a Markdown text');  // crash screen, not a write at 0
    HEAPU8.set(answer, pointer);
    HEAP32[sizeOut >> 2] = answer.length;
    return pointer;
  },

  // The math module for the formulas of the bank at `url` (web/rich.js: its typeset formulas file,
  // or imquiz-math.js). 0 loading, 1 ready, 2 failed (then *errorOut: why, malloc'ed).
  imquiz_js_math_prepare__deps: ['$imquizString', '$imquizHost'],
  imquiz_js_math_prepare: function (url, size, errorOut) {
    var state = imquizHost()['math']['prepare'](UTF8ToString(url, size));
    HEAP32[errorOut >> 2] = state['failed'] ? imquizString(state['failed']) : 0;
    return state['ready'] ? 1 : state['failed'] ? 2 : 0;
  },
  // One formula's answer (app/math.h, decode_math_answer), malloc'ed; 0 before the module is there.
  imquiz_js_math_typeset__deps: ['$imquizString', '$imquizHost'],
  imquiz_js_math_typeset: function (tex, size, display) {
    return imquizString(imquizHost()['math']['typeset'](UTF8ToString(tex, size), !!display));
  },

  // ---- Pictures: a bank's images, decoded by the browser into textures of the app's context ----
  // Drawn through a 2D canvas at the size asked for: that is how an SVG gets a size at all, and a
  // bitmap is scaled once with the browser's good filter instead of at every frame. Mipmaps keep
  // a picture shown smaller than its texture (a 320 px column) from shimmering.
  $imquizPictures: { next: 1, done: [] },
  imquiz_js_picture_decode__deps: ['$imquizPictures', '$imquizHost', '$GL'],
  imquiz_js_picture_decode: function (bytes, size, mimePointer, width, height, urlPointer) {
    var id = imquizPictures.next++;
    var url = UTF8ToString(urlPointer);
    function done(texture, error) {
      imquizPictures.done.push({ id: id, texture: texture, width: width, height: height, error: error });
      imquizHost()['wake']();
    }
    // web/rich.js reads the file in an image element, or has read it already (the first
    // question's pictures, fetched with the bank): then it is drawn now, in this call.
    imquizHost()['pictures']['read'](HEAPU8.slice(bytes, bytes + size), UTF8ToString(mimePointer),
                                     url ? new URL(url, location.href).href : '')['then'](function (answer) {
      if (!answer['image']) { done(0, answer['error']); return; }
      try {
        var canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        var context = canvas.getContext('2d');
        context.imageSmoothingQuality = 'high';
        context.drawImage(answer['image'], 0, 0, width, height);
        var gl = GLctx, texture = gl.createTexture(), bound = gl.getParameter(gl.TEXTURE_BINDING_2D);
        gl.bindTexture(gl.TEXTURE_2D, texture);
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, canvas);
        gl.generateMipmap(gl.TEXTURE_2D);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
        gl.bindTexture(gl.TEXTURE_2D, bound);
        var name = GL.getNewId(GL.textures);
        texture.name = name;
        GL.textures[name] = texture;
        done(name, '');
      } catch (e) {
        done(0, 'the browser could not draw it (' + e + ')');
      }
    });
    return id;
  },
  imquiz_js_picture_take__deps: ['$imquizPictures', '$imquizString'],
  imquiz_js_picture_take: function (idOut, textureOut, widthOut, heightOut, errorOut) {
    var result = imquizPictures.done.shift();
    if (!result) return 0;
    HEAP32[idOut >> 2] = result.id;
    HEAP32[textureOut >> 2] = result.texture;
    HEAP32[widthOut >> 2] = result.width;
    HEAP32[heightOut >> 2] = result.height;
    HEAP32[errorOut >> 2] = result.error ? imquizString(result.error) : 0;
    return 1;
  },
  imquiz_js_picture_free__deps: ['$GL'],
  imquiz_js_picture_free: function (name) {
    var texture = GL.textures[name];
    if (!texture) return;
    GLctx.deleteTexture(texture);
    GL.textures[name] = null;
  },

  // The syntax highlighter (boot.js adds its script on the first call): as the Markdown module.
  imquiz_js_highlighter_prepare__deps: ['$imquizString', '$imquizHost'],
  imquiz_js_highlighter_prepare: function (errorOut) {
    var state = imquizHost()['prepareHighlighter']();
    HEAP32[errorOut >> 2] = state['failed'] ? imquizString(state['failed']) : 0;
    return state['ready'] ? 1 : state['failed'] ? 2 : 0;
  },
  // The colours of a code block (imquiz-highlight.js, host.colourCode), malloc'ed; 0 before.
  imquiz_js_highlight__deps: ['$imquizString', '$imquizHost'],
  imquiz_js_highlight: function (language, code, size) {
    var colour = imquizHost()['colourCode'];
    return colour ? imquizString(colour(UTF8ToString(language), UTF8ToString(code, size))) : 0;
  },

  // ---- The frame loop: one requestAnimationFrame at a time, only while frames are wanted ----
  $imquizLoop: { scheduled: false, timer: 0 },
  // One timer at a time (an exam's countdown): it wakes the loop as input would.
  imquiz_js_wake_after__deps: ['$imquizLoop', '$imquizHost'],
  imquiz_js_wake_after: function (ms) {
    clearTimeout(imquizLoop.timer);
    imquizLoop.timer = setTimeout(function () { if (!ABORT) imquizHost()['wake'](); }, Math.max(0, ms));
  },
  imquiz_js_request_frame__deps: ['$imquizLoop'],
  imquiz_js_request_frame: function () {
    if (imquizLoop.scheduled) return;
    imquizLoop.scheduled = true;
    requestAnimationFrame(function () {
      imquizLoop.scheduled = false;
      // After an abort (out of memory, a trap) the module's memory is not to be trusted: no frame
      // runs on it, the page's crash notice stays.
      if (ABORT) return;
      _imquiz_frame();
    });
  },

  // ---- The canvas: context failure, backing store, cursor ----
  imquiz_js_cannot_draw__deps: ['$imquizHost'],
  imquiz_js_cannot_draw: function () { imquizHost()['cannotDraw'](); },
  imquiz_js_resize_canvas: function (width, height) {
    var canvas = document.getElementById('canvas');
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
  },
  imquiz_js_set_cursor: function (cursor) {
    var names = ['default', 'text', 'pointer', 'move', 'ns-resize', 'ew-resize', 'nesw-resize', 'nwse-resize',
                 'not-allowed', 'none'];
    document.getElementById('canvas').style.cursor = names[cursor] || 'default';
  },

  // ---- Input: DOM events on the canvas, queued in order until the frame takes them ----
  // Pointer events cover mouse, touch and pen alike; keys are listened to on the canvas only, so
  // the host page, the accessibility mirror and the answer field keep theirs.
  $imquizInput__deps: ['$imquizHost'],
  $imquizInput__postset: 'imquizInput.listen();',
  $imquizInput: {
    queue: [],
    // KeyboardEvent.code of platform::Key 1, 2, ... (platform.h, same order). An array, not an
    // object: Emscripten writes library objects out with bare keys, which closure then renames.
    codes: ['Tab', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', 'Insert',
            'Delete', 'Backspace', 'Space', 'Enter', 'Escape', 'NumpadEnter', 'KeyA', 'KeyC', 'KeyV', 'KeyX', 'KeyY',
            'KeyZ'],
    key: function (event) { return imquizInput.codes.indexOf(event.code) + 1; },
    // kind: platform::InputEvent::Kind + 1 (0 means "no event").
    push: function (kind, event, x, y, button, key, wheelX, wheelY, text) {
      var flags = (event.shiftKey ? 1 : 0) | (event.ctrlKey ? 2 : 0) | (event.altKey ? 4 : 0) | (event.metaKey ? 8 : 0) |
                  (event.pointerType && event.pointerType !== 'mouse' ? 16 : 0);
      imquizInput.queue.push([kind, x, y, button, flags, key, wheelX, wheelY, text]);
      imquizHost()['wake']();
    },
    listen: function () {
      var canvas = document.getElementById('canvas');
      var push = imquizInput.push;
      function pointer(kind, event) {
        if (!event.isPrimary) return;
        var rect = canvas.getBoundingClientRect();
        // DOM buttons: 0 main, 1 middle, 2 secondary; ImGui's: 0 main, 1 secondary, 2 middle.
        var button = event.button === 2 ? 1 : event.button === 1 ? 2 : 0;
        push(kind, event, event.clientX - rect.left, event.clientY - rect.top, button, 0, 0, 0, null);
      }
      canvas.addEventListener('pointermove', function (event) { pointer(1, event); });
      canvas.addEventListener('pointerdown', function (event) {
        // Keep the pointer while a button is held: a drag (touch scrolling) may leave the canvas.
        try { canvas.setPointerCapture(event.pointerId); } catch (e) { /* a synthetic pointer */ }
        pointer(2, event);
      });
      canvas.addEventListener('pointerup', function (event) { pointer(3, event); });
      canvas.addEventListener('pointercancel', function (event) { pointer(3, event); });
      canvas.addEventListener('pointerleave', function (event) { pointer(4, event); });
      // The column scrolls inside the canvas, never the page behind it.
      canvas.addEventListener('wheel', function (event) {
        event.preventDefault();
        push(5, event, 0, 0, 0, 0, Math.sign(event.deltaX), -Math.sign(event.deltaY), null);
      }, { passive: false });
      canvas.addEventListener('keydown', function (event) {
        if (event.isComposing) return;
        var key = imquizInput.key(event);
        var shortcut = event.ctrlKey || event.metaKey;
        if (key) push(6, event, 0, 0, 0, key, 0, 0, null);
        // One character (a letter, a digit, a symbol; not "Enter" or "F5") is also text.
        var typed = !shortcut && Array.from(event.key).length === 1 ? event.key : null;
        if (typed) push(8, event, 0, 0, 0, 0, 0, 0, typed);
        // The app handles these itself; the browser would scroll the page or leave the frame.
        // Browser shortcuts (Ctrl/Cmd, F-keys) keep working.
        if ((key || typed) && !shortcut && !event.altKey) event.preventDefault();
      });
      canvas.addEventListener('keyup', function (event) {
        var key = imquizInput.key(event);
        if (key) push(7, event, 0, 0, 0, key, 0, 0, null);
        held.delete(key);
      });
      // A key pressed on the canvas can be let go elsewhere: the arrow that walks onto a blank
      // gives the caret to the page's field before the key comes up (a slow frame, a long press),
      // and its release goes to the field. ImGui would hold it down and repeat it, walking on to
      // the last item. So leaving the canvas lets go of every key still held there.
      var held = new Set();
      canvas.addEventListener('keydown', function (event) {
        var key = imquizInput.key(event);
        if (key && !event.isComposing) held.add(key);
      });
      canvas.addEventListener('blur', function (event) {
        held.forEach(function (key) { push(7, event, 0, 0, 0, key, 0, 0, null); });
        held.clear();
      });
      window.addEventListener('focus', function (event) { push(9, event, 0, 0, 0, 0, 0, 0, null); });
      window.addEventListener('blur', function (event) { push(10, event, 0, 0, 0, 0, 0, 0, null); });
    }
  },
  // Fills numbers[8] (kind, x, y, button, flags, key, wheel x, wheel y); returns the text, if any.
  imquiz_js_input_take__deps: ['$imquizInput', '$imquizString'],
  imquiz_js_input_take: function (numbers) {
    var event = imquizInput.queue.shift();
    if (!event) { HEAPF32[numbers >> 2] = 0; return 0; }
    for (var i = 0; i < 8; i++) HEAPF32[(numbers >> 2) + i] = event[i];
    return imquizString(event[8]);
  }
});
