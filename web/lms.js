// ImQuiz in an LMS: the SCORM 1.2 / 2004 runtime adapter. Only a package's launch page loads it
// (scorm.html, made by `quizc package`, docs/lms.md), before boot.js; the site's index.html never
// does. It reports what the app already tells a host page, the xAPI statements of
// src/app/host_events.cpp (one source of truth), and keeps the learner's progress record, the
// app's own, in the LMS's suspend data, so that the attempt resumes on another computer.
// Without an LMS, or with one that fails, the quiz plays as on the site, with a notice.
'use strict';

(function () {
  function meta(name) {
    var element = document.querySelector('meta[name="' + name + '"]');
    return element ? element.getAttribute('content') : '';
  }
  var version = meta('imquiz-scorm');
  var quizId = meta('imquiz-quiz');
  if ((version !== '1.2' && version !== '2004') || !quizId) return;
  var is12 = version === '1.2';

  // The package's one quiz, and no service worker: its scope would be the LMS's folder of this
  // package, which the LMS replaces when the author uploads a new version. Before boot.js reads
  // the address; whatever the LMS put in the query stays.
  var address = new URL(location.href);
  if (address.searchParams.get('quiz') !== quizId || address.searchParams.get('sw') !== '0') {
    address.searchParams.set('quiz', quizId);
    address.searchParams.set('sw', '0');
    history.replaceState(history.state, '', address.href);
  }

  var calls = is12
    ? { init: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit', finish: 'LMSFinish',
        error: 'LMSGetLastError', errorText: 'LMSGetErrorString' }
    : { init: 'Initialize', get: 'GetValue', set: 'SetValue', commit: 'Commit', finish: 'Terminate',
        error: 'GetLastError', errorText: 'GetErrorString' };
  var cmi = is12
    ? { exit: 'cmi.core.exit', sessionTime: 'cmi.core.session_time', score: 'cmi.core.score.' }
    : { exit: 'cmi.exit', sessionTime: 'cmi.session_time', score: 'cmi.score.' };
  // SCORM 1.2's cmi.suspend_data is a CMIString4096; 2004 (4th edition) keeps at least 64,000.
  var suspendLimit = is12 ? 4096 : 64000;

  // ---- Finding the LMS: the API object in this window's parents, then in its opener's ------
  function findIn(win, name) {
    for (var depth = 0; win && depth < 500; depth++) {
      try { if (win[name]) return win[name]; } catch (e) { /* a window of another origin */ }
      if (win.parent === win) break;
      win = win.parent;
    }
    return null;
  }
  var apiName = is12 ? 'API' : 'API_1484_11';
  var api = findIn(window, apiName) || (window.opener ? findIn(window.opener, apiName) : null);

  var noticeShown = {};
  function notice(text) {
    if (noticeShown[text]) return;
    noticeShown[text] = true;
    var box = document.createElement('p');
    box.className = 'lms-notice';
    box.setAttribute('role', 'status');
    box.textContent = text + ' ';
    // Styles through the CSSOM: the page's policy (style-src 'self') refuses style attributes.
    var style = box.style;
    style.position = 'fixed'; style.left = '0'; style.right = '0'; style.bottom = '0'; style.margin = '0';
    style.padding = '0.5em 1em'; style.background = '#fff4ce'; style.color = '#3b2f00'; style.font = '14px sans-serif';
    style.zIndex = '10';
    var close = document.createElement('button');
    close.type = 'button';
    close.textContent = 'OK';
    close.addEventListener('click', function () { box.remove(); });
    box.appendChild(close);
    document.body.appendChild(box);
  }

  var live = false;        // initialized and not failed
  function call(name, a, b) {
    try { return String(api[calls[name]](a === undefined ? '' : a, b)); } catch (e) { return 'false'; }
  }
  function lastError() {
    var code = call('error');
    return code + ' ' + call('errorText', code);
  }
  function get(element) { return live ? call('get', element) : ''; }
  function set(element, value) {
    if (!live) return false;
    if (call('set', element, String(value)) === 'true') return true;
    console.warn('ImQuiz: the LMS refused ' + element + ' = ' + JSON.stringify(String(value).slice(0, 80)) + ': ' + lastError());
    return false;
  }
  function commit() {
    if (live && call('commit') !== 'true') {
      notice('The LMS did not save your progress (' + lastError() + '): keep this page open and try again later.');
    }
  }

  if (!api) {
    notice('No LMS was found: you can take this quiz, but its result is not sent to a gradebook.');
  } else if (call('init') !== 'true') {
    notice('The LMS did not start this quiz (' + lastError() + '): you can take it, but its result is not recorded.');
  } else {
    live = true;
  }
  var startedAt = Date.now();
  var interactionCount = Number(get('cmi.interactions._count')) || 0;

  // ---- Times -------------------------------------------------------------------------------
  function seconds(isoDuration) {   // "PT12.5S", as host_events.cpp writes it
    var match = /^PT(\d+(?:\.\d+)?)S$/.exec(isoDuration || '');
    return match ? Number(match[1]) : 0;
  }
  function pad(number, width) { var text = String(number); while (text.length < width) text = '0' + text; return text; }
  // SCORM 1.2's CMITimespan, HHHH:MM:SS.SS; 2004's ISO 8601 duration.
  function timespan(totalSeconds) {
    if (!is12) return 'PT' + Math.round(totalSeconds * 100) / 100 + 'S';
    var centiseconds = Math.round(totalSeconds * 100);
    var hours = Math.min(9999, Math.floor(centiseconds / 360000));
    var minutes = Math.floor(centiseconds / 6000) % 60;
    var rest = centiseconds % 6000;
    return pad(hours, 4) + ':' + pad(minutes, 2) + ':' + pad(Math.floor(rest / 100), 2) + '.' + pad(rest % 100, 2);
  }

  // ---- Reports from the app's statements -----------------------------------------------------
  var status = is12 ? get('cmi.core.lesson_status') : get('cmi.completion_status');
  var attemptOpen = false;   // the last record the app saved has an attempt in progress
  function report(message) {
    if (!live || !message || message.type !== 'imquiz:xapi' || !message.statement) return;
    var statement = message.statement;
    var verb = String(statement.verb && statement.verb.id).split('/').pop();
    var result = statement.result || {};
    if (verb === 'attempted') {
      // A new attempt never takes back a status the learner already earned.
      if (!status || status === 'not attempted' || status === 'unknown' || status === 'browsed') {
        status = 'incomplete';
        set(is12 ? 'cmi.core.lesson_status' : 'cmi.completion_status', status);
        if (!is12) set('cmi.success_status', 'unknown');
        commit();
      }
    } else if (verb === 'answered') {
      addInteraction(statement, result);
      commit();
    } else if (verb === 'completed' && result.score) {
      // A review round (Review mistakes, Review N due) is practice on a few of the quiz's
      // questions: its answers are in the interactions, its score is not the quiz's grade.
      if (!isReview(statement)) grade(result);
      set(cmi.sessionTime, timespan((Date.now() - startedAt) / 1000));
      commit();
    }
  }

  // The score and status of an attempt at the whole quiz.
  function grade(result) {
    var score = result.score;
    var scaled = typeof score.scaled === 'number' ? score.scaled : 0;
    if (is12) {   // 0..100 in 1.2: the percent, as gradebooks read raw
      set(cmi.score + 'raw', Math.round(scaled * 10000) / 100);
      set(cmi.score + 'min', 0);
      set(cmi.score + 'max', 100);
      status = result.success ? 'passed' : 'failed';
      set('cmi.core.lesson_status', status);
    } else {
      set(cmi.score + 'scaled', Math.round(scaled * 10000) / 10000);
      set(cmi.score + 'raw', score.raw);
      set(cmi.score + 'min', score.min);
      set(cmi.score + 'max', score.max);
      status = 'completed';
      set('cmi.completion_status', status);
      set('cmi.success_status', result.success ? 'passed' : 'failed');
    }
  }

  function isReview(statement) {
    var extensions = statement.context && statement.context.extensions;
    return !!extensions && extensions['urn:imquiz:xapi:round'] === 'review';
  }

  var interactionTypes = { choice: 1, 'true-false': 1, 'fill-in': 1, numeric: 1, matching: 1, sequencing: 1 };
  function addInteraction(statement, result) {
    var definition = (statement.object && statement.object.definition) || {};
    var type = interactionTypes[definition.interactionType] ? definition.interactionType : 'other';
    var objectId = String(statement.object.id);
    var prefix = 'cmi.interactions.' + interactionCount + '.';
    // 1.2's CMIIdentifier: the question's id (a slug); 2004 takes the activity's URN whole.
    if (!set(prefix + 'id', is12 ? objectId.split(':').pop() : objectId)) return;
    interactionCount++;
    if (is12 && type === 'other') type = 'performance';
    set(prefix + 'type', type);
    var response = String(result.response === undefined ? '' : result.response);
    // xAPI's patterns are SCORM 2004's; 1.2 writes "a.x,b.y" (matching) and "a,b,c" (choice, sequencing).
    if ((type === 'choice' || type === 'sequencing') && is12) response = response.split('[,]').join(',');
    else if (type === 'matching' && is12) response = response.split('[,]').map(function (pair) { return pair.split('[.]').join('.'); }).join(',');
    else if (type === 'true-false' && is12) response = response === 'true' ? 't' : 'f';
    else if (type === 'numeric') response = String(Number(response.replace(',', '.')));
    else if (type === 'fill-in') response = response.slice(0, 250);
    if (response !== 'NaN') set(prefix + (is12 ? 'student_response' : 'learner_response'), response);
    set(prefix + 'result', result.success ? 'correct' : is12 ? 'wrong' : 'incorrect');
    set(prefix + 'latency', timespan(seconds(result.duration)));
    var when = new Date(statement.timestamp || Date.now());
    if (is12) set(prefix + 'time', pad(when.getHours(), 2) + ':' + pad(when.getMinutes(), 2) + ':' + pad(when.getSeconds(), 2));
    else set(prefix + 'timestamp', when.toISOString().slice(0, 19));
    // 1.2 has no field for it: the LMS's report of an interaction then says only the above.
    if (!is12) set(prefix + 'description', howAnswered(statement, result));
  }

  // For SCORM 2004's interaction description, what the statement's extensions say of how the
  // answer came: "practice; try 2; hints used: 1; review round". Our own words and numbers only,
  // never a bank's text.
  function howAnswered(statement, result) {
    var extensions = result.extensions || {};
    var parts = [];
    var mode = extensions['urn:imquiz:xapi:mode'];
    if (mode === 'practice' || mode === 'exam') parts.push(mode);
    var tries = Number(extensions['urn:imquiz:xapi:tries']);
    if (isFinite(tries) && tries > 0) parts.push('try ' + Math.round(tries));
    var hints = Number(extensions['urn:imquiz:xapi:hints-used']);
    if (isFinite(hints) && hints >= 0) parts.push('hints used: ' + Math.round(hints));
    if (isReview(statement)) parts.push('review round');
    return parts.join('; ');
  }

  // ---- Suspend data: the app's progress record, deflated and in base64 ----------------------
  // "1::<data>" is the whole record. "2:<attempt id>:<data>" is the record without the attempt
  // in progress, which was too long for the LMS: that attempt resumes only in the browser that
  // has it (docs/lms.md, Limits).
  function base64(bytes) {
    var text = '';
    for (var i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(text);
  }
  function through(stream, bytes) {
    return new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer().then(function (buffer) {
      return new Uint8Array(buffer);
    });
  }
  var compressing = typeof CompressionStream === 'function' && typeof DecompressionStream === 'function';
  function pack(text) {
    if (!compressing) return Promise.resolve('0:' + text);   // no streams: JSON as it is
    return through(new CompressionStream('deflate-raw'), new TextEncoder().encode(text)).then(base64);
  }
  function unpack(data) {
    if (data.indexOf('0:') === 0) return Promise.resolve(data.slice(2));
    var binary = atob(data);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return through(new DecompressionStream('deflate-raw'), bytes).then(function (out) { return new TextDecoder().decode(out); });
  }
  // Resolves with { data } that fits suspendLimit, or { tooLong: the length of the least it could
  // be }. Over the limit, the oldest finished attempts are counted but no longer listed (as the
  // app's own pruning does), then the per-question statistics go, then the attempt in progress.
  function encode(text) {
    var record = JSON.parse(text);
    function attempt(kind) {
      var body = JSON.stringify(record);
      return pack(body).then(function (packed) {
        var data = kind + ':' + leftOut + ':' + packed;
        if (data.length <= suspendLimit) return { data: data };
        if (record.finished && record.finished.length) {
          var dropped = Math.ceil(record.finished.length / 2);
          record.finished.splice(0, dropped);
          record.earlierAttempts = (record.earlierAttempts || 0) + dropped;
          return attempt(kind);
        }
        if (record.questionStats && Object.keys(record.questionStats).length) {
          record.questionStats = {};
          return attempt(kind);
        }
        if (record.inProgress) {
          leftOut = String(record.inProgress.attemptId || '');
          delete record.inProgress;
          return attempt('2');
        }
        return { tooLong: data.length };
      });
    }
    var leftOut = '';
    return attempt('1');
  }
  function decode(data) {
    var match = /^([12]):([^:]*):([\s\S]*)$/.exec(data);
    if (!match) return Promise.reject(new Error('unknown format'));
    return unpack(match[3]).then(function (text) { return { record: text, leftOut: match[1] === '2' ? match[2] : '' }; });
  }

  var progressKey = 'progress.' + quizId;
  var storageKey = 'imquiz:' + new URL('.', location.href).pathname + ':' + progressKey;   // boot.js's namespace
  function readLocal() { try { return localStorage.getItem(storageKey); } catch (e) { return null; } }
  function writeLocal(text) {
    try { if (text === null) localStorage.removeItem(storageKey); else localStorage.setItem(storageKey, text); } catch (e) { /* memory only */ }
  }

  // The LMS's copy is the learner's: this browser's record of the quiz is replaced by it (on a
  // shared computer the record there may be someone else's), except for an attempt in progress
  // that only this browser could keep ("2:", above).
  function restore() {
    if (!live) return Promise.resolve();
    var suspended = get('cmi.suspend_data');
    if (!suspended) { writeLocal(null); return Promise.resolve(); }
    return decode(suspended).then(function (found) {
      var local = readLocal();
      var localRecord = null;
      try { localRecord = local && JSON.parse(local); } catch (e) { /* unreadable: the app sets it aside */ }
      if (found.leftOut && localRecord && localRecord.inProgress && localRecord.inProgress.attemptId === found.leftOut) return;
      writeLocal(found.record);
      lastSuspended = suspended;
    }).catch(function (error) {
      notice('The progress the LMS kept for this quiz could not be read (' + error.message + '): it was left as it is.');
      live = false;   // never overwrite what could not be read
    });
  }

  var lastSuspended = '';
  var saving = Promise.resolve();
  var latest = null;       // the last record the app saved
  var unsaved = null;      // ... until its suspend data is set
  function exitValue() { return attemptOpen ? 'suspend' : is12 ? '' : 'normal'; }
  function suspend(text) {
    var record;
    try { record = JSON.parse(text); } catch (e) { return; }
    attemptOpen = !!record.inProgress;
    latest = unsaved = text;
    // One at a time, and only the newest: an older record never overwrites a newer one.
    saving = saving.then(function () {
      if (text !== latest) return;
      return encode(text).then(function (encoded) { if (text === latest) send(encoded); });
    }).catch(function (error) { console.warn('ImQuiz: progress not sent to the LMS: ' + error.message); });
  }
  function send(encoded) {
    unsaved = null;
    if (encoded.tooLong) {
      notice('Your progress is too long for the LMS (' + encoded.tooLong + ' characters, it keeps ' + suspendLimit +
             '): it is kept in this browser only.');
      return;
    }
    if (encoded.data.indexOf('2:') === 0) {
      notice('This attempt is too long for the LMS to keep (it keeps ' + suspendLimit + ' characters): it can be ' +
             'resumed in this browser only. Your result is reported when you finish.');
    }
    if (encoded.data !== lastSuspended && set('cmi.suspend_data', encoded.data)) lastSuspended = encoded.data;
    // Kept current at every commit: a page closed without pagehide still leaves the right one.
    set(cmi.exit, exitValue());
    commit();
  }

  // ---- Leaving ---------------------------------------------------------------------------------
  var finished = false;
  function leave(hidden) {
    if (!live || finished) return;
    set(cmi.sessionTime, timespan((Date.now() - startedAt) / 1000));
    // The page is going before the last record was deflated: it goes as JSON ("0:"), if it fits.
    if (unsaved !== null && 5 + unsaved.length <= suspendLimit && set('cmi.suspend_data', '1::0:' + unsaved)) {
      lastSuspended = '1::0:' + unsaved;
      unsaved = null;
    }
    set(cmi.exit, exitValue());
    if (hidden) { commit(); return; }
    commit();
    finished = true;
    call('finish');
  }
  document.addEventListener('visibilitychange', function () { if (document.visibilityState === 'hidden') leave(true); });
  window.addEventListener('pagehide', function () { leave(false); });

  // boot.js calls this with its ImQuizHost before it starts the app, and starts it once the
  // promise resolves: the record the LMS kept is in storage before the app reads it.
  window.ImQuizLms = function (host) {
    var storageSet = host.storage.set;
    host.storage.set = function (key, value) {
      var saved = storageSet.apply(this, arguments);
      if (key === progressKey && live) suspend(value);
      return saved;
    };
    var postToHost = host.postToHost;
    host.postToHost = function (json) {
      postToHost.apply(this, arguments);
      var message;
      try { message = JSON.parse(json); } catch (e) { return; }
      report(message);
    };
    host.lms = { version: version, live: function () { return live; }, saving: function () { return saving; } };
    return restore();
  };
})();
