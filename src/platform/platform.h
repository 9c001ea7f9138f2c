// The app's only window onto its host (the browser, or a desktop shell). Everything here is
// neutral: no Emscripten or JavaScript type leaks out, so ui/ and app/ never need an #ifdef.
// The web implementation is platform/web/; CMake picks the implementation, not the preprocessor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace imquiz {
class KeyValueStore;
}

namespace imquiz::platform {

// ---- Start-up and the main loop ----

// Called once before anything else (reads URL parameters, probes storage).
void init();

// Runs `frame` repeatedly until it returns false (never, on the web). Frames are drawn only while
// something asks for them: input and resize wake the loop, `request_frames` keeps it going.
// The browser's "return from main but keep running" trick is hidden in here.
using FrameFunction = bool (*)(void* user);
void run_main_loop(FrameFunction frame, void* user);

// Ask for at least `count` more frames (an animation, a pending fetch, a changed state).
void request_frames(int count);

// ---- Environment ----

// A query parameter of the page URL ("" if absent). Read once at start.
std::string url_parameter(const char* name);
// The browser's preferred language, lower-case ("en", "ru-ru", ...).
std::string browser_language();
bool system_prefers_dark();
bool system_prefers_reduced_motion();
bool system_prefers_more_contrast();
// 64 random bits from the browser's crypto (a salt for attempt seeds, not a secret).
std::uint64_t random_u64();
// Wall clock in milliseconds since the Unix epoch (the engine is given times, never reads them).
double now_ms();
// Size of the area the app may draw on, in CSS pixels, and the device pixel ratio.
void viewport_size(int& css_width, int& css_height, float& device_pixel_ratio);
// Document language and title (screen readers and tab titles).
void set_document_info(const std::string& language, const std::string& title);

// ---- Loading files relative to the page (quizzes/, fonts) ----

struct FetchResult {
    int request_id = 0;
    int http_status = 0;       // 0: the request never got an answer (offline, refused, timed out)
    std::string url;
    std::string body;
    std::string error;         // plain-language reason when http_status is not 2xx
};
// Starts loading `url` (relative to the page). Files the page began loading before the app
// started (see web/boot.js) are served from that head start.
int start_fetch(const std::string& url);
// Completed fetches, one at a time; false when there is none.
bool take_fetch_result(FetchResult& result);

// ---- Persistent storage ----

// localStorage, namespaced per deployment; falls back to memory when the browser refuses.
KeyValueStore& storage();
bool storage_is_persistent();
// Keys another tab changed since the last call (the browser's `storage` event).
std::vector<std::string> take_changed_storage_keys();

// ---- The host page (iframe embedding) ----

// Sends a JSON message to the embedding page, only to the origin it allowed.
void post_to_host(const std::string& json);
// The content height the page needs, in CSS pixels (iframe auto-height).
void report_content_height(int css_pixels);

// ---- Effects the browser allows only inside a user gesture ----

void download_text_file(const std::string& file_name, const std::string& text);
// Opens a file picker; the chosen file's text arrives later through take_picked_file.
void pick_text_file();
bool take_picked_file(std::string& text);

// ---- Observability for tests and the accessibility mirror ----

// Publishes the app's current screen as JSON for the page (window.imquiz.state).
void publish_state(const std::string& json);
// Actions the page asked for (from the accessibility mirror or a test), one JSON object each.
bool take_page_action(std::string& json);
// Tells the page that something happened ("first-frame", "first-question").
void signal(const char* event_name);

}  // namespace imquiz::platform
