// The app's only window onto its host (the browser, or a desktop shell). Everything here is
// neutral: no Emscripten or JavaScript type leaks out, so ui/ and app/ never need an #ifdef.
// The web implementation is platform/web/; CMake picks the implementation, not the preprocessor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz::platform {

// ---- Start-up and the main loop ----

// Called once before anything else (reads URL parameters, probes storage).
void init();

// Calls `frame` once per displayed frame, but only while something asks for frames: input and
// resize wake the loop, `request_frames` keeps it going, idle costs nothing. On the web this
// returns at once and the browser calls `frame` from then on; a desktop loop would return when
// `frame` returns false.
using FrameFunction = bool (*)(void* user);
void run_main_loop(FrameFunction frame, void* user);

// Ask for at least `count` more frames (an animation, a pending fetch, a changed state).
void request_frames(int count);
// Wake the loop for a frame in about `ms` milliseconds, with no input (an exam's countdown); a
// later call replaces the earlier one.
void wake_after(int ms);

// ---- The drawing surface and its input ----

// Creates an OpenGL ES 3 / WebGL 2 context on the app's surface (the page's canvas) and makes it
// current. false: nothing can be drawn here; the page has already said so to the learner.
bool create_gl_surface();
// Sets the surface's backing store, in device pixels (CSS size times the device pixel ratio).
void resize_surface(int pixel_width, int pixel_height);
// true where a frame that draws nothing leaves the last drawn picture on screen: a WebGL canvas
// is presented only when it was drawn to. There a frame whose drawing is the same as the last one
// is not drawn again (program/frame.cpp). false where each frame presents a new buffer (a
// desktop window's swap, whose back buffer holds an older frame).
bool surface_keeps_last_drawing();
// Milliseconds from an arbitrary start, never going back (frame timing, not dates).
double monotonic_ms();

// Keys the interface reacts to; everything typed also arrives as text.
enum class Key : int {
    None, Tab, Left, Right, Up, Down, PageUp, PageDown, Home, End, Insert, Delete, Backspace, Space,
    Enter, Escape, KeypadEnter, A, C, V, X, Y, Z, Count
};

// One thing the learner did on the surface, in the order it happened.
struct InputEvent {
    enum class Kind { PointerMove, PointerDown, PointerUp, PointerLeave, Wheel, KeyDown, KeyUp, Text, FocusIn, FocusOut };
    Kind kind = Kind::PointerMove;
    float x = 0, y = 0;              // pointer position in CSS pixels from the surface's top-left
    int button = 0;                  // 0 primary, 1 secondary, 2 middle
    bool touch = false;              // the pointer is a finger or a pen, not a mouse
    float wheel_x = 0, wheel_y = 0;  // one step per wheel event; positive: right / up
    Key key = Key::None;
    bool shift = false, ctrl = false, alt = false, super = false;  // modifiers held with this event
    std::string text;                // Text: what was typed, UTF-8
};
// The next input event, false when there is none.
bool take_input_event(InputEvent& event);

enum class Cursor { Arrow, Text, Hand, Move, ResizeNS, ResizeEW, ResizeNESW, ResizeNWSE, NotAllowed, Hidden };
void set_cursor(Cursor cursor);

// ---- Environment ----

// A query parameter of the page URL ("" if absent). Read once at start.
std::string url_parameter(const char* name);
// The bank under development this page was opened with (`bank=<url>`), as an absolute URL, when
// the deployment allows such links; "" otherwise. The page checks the deployment's setting before
// the app starts (web/boot.js, authoring.json) and shows its own message for a refused link, so
// the app never runs with one: a non-empty answer is always a bank= in effect, from this URL.
std::string development_bank_url();
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
// Files fetched earlier whose source changed since (their URLs, as asked for): a desktop player
// watching an author's folder (--watch) answers here; the web never does.
std::vector<std::string> take_changed_files();

// ---- The Markdown parser (banks with "textFormat": "markdown") ----

// engine/markdown.h's md4c. On the web it is a module of its own (imquiz-markdown.wasm), fetched
// only when a bank asks for Markdown: the first call starts that, and the loop is woken when it
// is Ready or has Failed (`error` then says why, in plain words). Natively md4c is linked in.
enum class MarkdownParser { Loading, Ready, Failed };
MarkdownParser prepare_markdown(std::string& error);
// The module's answer for a text once it is Ready: the text read, encoded as
// engine/markdown.h's encode_parsed_markdown says (the platform only carries it); "" before.
std::string parse_markdown(std::string_view markdown);

// The plain web player (app/player.h) met a Markdown bank: asks the page to start the rich player
// instead (the page reloads into it; progress is all saved by then). False where that cannot be
// done (no page, or storage to remember the choice in): the app then says so on the bank's card.
bool open_rich_player();

// ---- The math typesetter (formulas of Markdown banks: $...$ and $$...$$) ----

// MathJax, on the web a worker of its own (imquiz-math.js), started only when a bank shows math:
// the first call starts loading it, and the loop is woken when it is Ready or has Failed (`error`
// then says why). Absent: this platform has no typesetter (the memory platform of native tests;
// formulas show as their TeX there, as they do before the module has come). `bank_url`: the bank
// whose formulas are wanted (the web reads its formulas typeset ahead of time, when its catalog
// entry names a file of them, before it loads MathJax).
enum class MathTypesetter { Loading, Ready, Failed, Absent };
MathTypesetter prepare_math(std::string_view bank_url, std::string& error);
// The module's answer for one formula once it is Ready, encoded as app/math.h's
// decode_math_answer reads it (the platform only carries it). "" for one not here yet: on the web
// the module typesets in a worker, off the main thread, and the loop is woken once every formula
// asked for has its answer.
std::string typeset_math(std::string_view tex, bool display);

// ---- Pictures (a bank's images) as textures of the drawing surface ----

// Decodes a picture file (`mime`: image/png, image/jpeg, image/webp or image/svg+xml) into a
// texture `pixel_width` x `pixel_height` device pixels big: an SVG is drawn at that size, a bitmap
// scaled to it. The answer comes through take_decoded_picture, and wakes the loop. `url`: where
// the file came from (empty for one made here, a formula's). The web page may have read that
// file already (web/rich.js: the first question's pictures, fetched with the bank); it is then
// drawn at once, and its answer is there before this call returns.
int start_picture_decode(std::string_view bytes, const char* mime, int pixel_width, int pixel_height,
                         const std::string& url);
struct DecodedPicture {
    int request_id = 0;
    std::uint32_t texture = 0;   // a texture name of the surface's GL context (ImTextureID); 0 failed
    int width = 0, height = 0;   // its size in pixels
    std::string error;           // plain-language reason when texture is 0
};
bool take_decoded_picture(DecodedPicture& picture);
void free_picture(std::uint32_t texture);
// ---- Syntax colours of code blocks (Markdown banks) ----

// Prism, in a script of its own (imquiz-highlight.js), fetched only when a code block in a
// language engine/code_colours.h colours is shown: the first call starts loading it and answers
// Loading, and the loop is woken when it is Ready or has Failed (`error` then says why, in plain
// words; it stays Failed until the page is loaded again). Nothing waits for it: code is drawn
// plain until then, and stays plain without it.
enum class CodeHighlighter { Loading, Ready, Failed };
CodeHighlighter prepare_code_highlighter(std::string& error);
// Once Ready: the colours of `code` in `language` (a name coloured_language() gave), as
// engine/code_colours.h's read_code_spans reads them (the platform only carries them); "" before.
std::string highlight_code(std::string_view language, std::string_view code);

// ---- Persistent storage ----

// localStorage, namespaced per deployment; falls back to memory when the browser refuses.
// Plain strings both ways: what is stored (progress records, settings) is the app's business.
std::optional<std::string> storage_get(const std::string& key);
// False when the value could not be stored (quota exceeded, storage disabled).
bool storage_set(const std::string& key, const std::string& value);
// True when the key is gone afterwards (also when it never existed).
bool storage_remove(const std::string& key);
std::vector<std::string> storage_keys();
bool storage_is_persistent();
// Keys another tab changed since the last call (the browser's `storage` event).
std::vector<std::string> take_changed_storage_keys();

// ---- The host page (iframe embedding) ----

// Sends a JSON message to the embedding page, only to the origin it allowed.
void post_to_host(const std::string& json);
// The content height the page needs, in CSS pixels (iframe auto-height).
void report_content_height(int css_pixels);

// ---- Typed answers ----

// True where the host lays a text field of its own over the answer frame (the web's
// text-field.js: on-screen keyboards, IMEs, autocorrect and screen readers as in any form) and
// sends what is typed as page actions; false where the interface must edit the text itself (the
// desktop, whose IME text comes as InputEvent::Text).
bool hosts_text_fields();

// ---- Effects the browser allows only inside a user gesture ----

void download_text_file(const std::string& file_name, const std::string& text);
// Opens a link of a bank's text in a new tab, with no reference back to this page.
void open_link(const std::string& url);
// Puts text on the clipboard (a code block's Copy button).
void copy_text(const std::string& text);
// Opens a file picker; the chosen file's text arrives later through take_picked_file.
void pick_text_file();
bool take_picked_file(std::string& text);

// ---- Observability for tests and the accessibility mirror ----

// Publishes the app's current screen as JSON for the page (ImQuizHost.state; docs/page-protocol.md),
// or, given a JSON array, only the rectangles drawn this frame (the rest of the document stays).
void publish_state(const std::string& json);
// Actions the page asked for (from the accessibility mirror or a test), one JSON object each.
bool take_page_action(std::string& json);
// Tells the page that something happened ("first-frame", "first-question").
void signal(const char* event_name);

}  // namespace imquiz::platform
