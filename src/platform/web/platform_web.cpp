// platform.h for the browser. The JavaScript half is library_imquiz.js + web/boot.js.
#include "platform/platform.h"

#include <emscripten.h>
#include <emscripten/html5.h>
#include <emscripten/html5_webgl.h>

#include <cstdlib>
#include <map>

extern "C" {
char* imquiz_js_url_parameter(const char* name);
char* imquiz_js_development_bank_url();
char* imquiz_js_browser_language();
int imquiz_js_media_matches(const char* query);
double imquiz_js_now_ms();
void imquiz_js_wake_after(int ms);
double imquiz_js_random_u32();
void imquiz_js_viewport(int* width, int* height, float* ratio);
void imquiz_js_set_document_info(const char* language, const char* title);
int imquiz_js_fetch_start(const char* url);
char* imquiz_js_fetch_take(int* id, int* status, int* length, char** url, char** error);
char* imquiz_js_storage_get(const char* key);
int imquiz_js_storage_set(const char* key, const char* value);
int imquiz_js_storage_remove(const char* key);
char* imquiz_js_storage_keys();
int imquiz_js_storage_persistent();
char* imquiz_js_storage_take_changed();
void imquiz_js_post_to_host(const char* json);
void imquiz_js_report_height(int css_pixels);
void imquiz_js_download(const char* name, const char* text);
void imquiz_js_pick_file();
char* imquiz_js_take_picked_file();
void imquiz_js_publish_state(const char* json);
char* imquiz_js_take_page_action();
void imquiz_js_signal(const char* name);
void imquiz_js_request_frame();
void imquiz_js_cannot_draw();
void imquiz_js_resize_canvas(int width, int height);
char* imquiz_js_input_take(float* numbers);
int imquiz_js_markdown_prepare(char** error);
int imquiz_js_open_rich_player();
void imquiz_js_open_link(const char* url);
void imquiz_js_copy_text(const char* text);
char* imquiz_js_markdown_read(const char* text, int size, int* answer_size);
void imquiz_js_set_cursor(int cursor);
int imquiz_js_math_prepare(const char* bank_url, int size, char** error);
char* imquiz_js_math_typeset(const char* tex, int size, int display);
int imquiz_js_picture_decode(const char* bytes, int size, const char* mime, int width, int height, const char* url);
int imquiz_js_picture_take(int* id, int* texture, int* width, int* height, char** error);
void imquiz_js_picture_free(int texture);
int imquiz_js_highlighter_prepare(char** error);
char* imquiz_js_highlight(const char* language, const char* code, int size);
}

namespace imquiz::platform {
namespace {

// Takes ownership of a string malloc'ed by the JavaScript side.
std::string adopt(char* text) {
    if (!text) return {};
    std::string result(text);
    std::free(text);
    return result;
}
bool adopt(char* text, std::string& out) {
    if (!text) return false;
    out = adopt(text);
    return true;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        if (end > start) lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

// Frames are drawn from requestAnimationFrame callbacks that library_imquiz.js schedules only
// while someone wants frames: idle costs nothing, and input (boot.js) wakes the loop.
struct MainLoop {
    FrameFunction frame = nullptr;
    void* user = nullptr;
    int frames_wanted = 0;
};
MainLoop main_loop;

}  // namespace

void init() {}

void run_main_loop(FrameFunction frame, void* user) {
    main_loop.frame = frame;
    main_loop.user = user;
    request_frames(3);
    // main() returns now; the runtime stays (EXIT_RUNTIME=0) and frames come from the browser.
}

void request_frames(int count) {
    if (count > main_loop.frames_wanted) main_loop.frames_wanted = count;
    if (main_loop.frame && main_loop.frames_wanted > 0) imquiz_js_request_frame();
}

bool create_gl_surface() {
    EmscriptenWebGLContextAttributes attributes;
    emscripten_webgl_init_context_attributes(&attributes);
    attributes.majorVersion = 2;
    attributes.minorVersion = 0;
    attributes.alpha = false;       // the app paints every pixel; an opaque canvas composites faster
    attributes.depth = false;       // ImGui draws flat triangles in order
    attributes.stencil = false;
    attributes.antialias = false;   // ImGui anti-aliases its own shapes
    EMSCRIPTEN_WEBGL_CONTEXT_HANDLE context = emscripten_webgl_create_context("#canvas", &attributes);
    if (context <= 0 || emscripten_webgl_make_context_current(context) != EMSCRIPTEN_RESULT_SUCCESS) {
        imquiz_js_cannot_draw();
        return false;
    }
    return true;
}

void resize_surface(int pixel_width, int pixel_height) { imquiz_js_resize_canvas(pixel_width, pixel_height); }
bool surface_keeps_last_drawing() { return true; }
double monotonic_ms() { return emscripten_get_now(); }

bool take_input_event(InputEvent& event) {
    // kind, x, y, button, flags, key, wheel x, wheel y: see imquiz_js_input_take.
    float numbers[8] = {};
    char* text = imquiz_js_input_take(numbers);
    if (numbers[0] == 0) return false;
    event = InputEvent{};
    event.kind = static_cast<InputEvent::Kind>(static_cast<int>(numbers[0]) - 1);
    event.x = numbers[1];
    event.y = numbers[2];
    event.button = static_cast<int>(numbers[3]);
    int flags = static_cast<int>(numbers[4]);
    event.shift = flags & 1;
    event.ctrl = flags & 2;
    event.alt = flags & 4;
    event.super = flags & 8;
    event.touch = flags & 16;
    int key = static_cast<int>(numbers[5]);
    event.key = key > 0 && key < static_cast<int>(Key::Count) ? static_cast<Key>(key) : Key::None;
    event.wheel_x = numbers[6];
    event.wheel_y = numbers[7];
    event.text = adopt(text);
    return true;
}

void set_cursor(Cursor cursor) { imquiz_js_set_cursor(static_cast<int>(cursor)); }

std::string url_parameter(const char* name) { return adopt(imquiz_js_url_parameter(name)); }
std::string development_bank_url() { return adopt(imquiz_js_development_bank_url()); }
std::string browser_language() { return adopt(imquiz_js_browser_language()); }
bool system_prefers_dark() { return imquiz_js_media_matches("(prefers-color-scheme: dark)") != 0; }
bool system_prefers_reduced_motion() { return imquiz_js_media_matches("(prefers-reduced-motion: reduce)") != 0; }
bool system_prefers_more_contrast() { return imquiz_js_media_matches("(prefers-contrast: more)") != 0; }
double now_ms() { return imquiz_js_now_ms(); }
void wake_after(int ms) { imquiz_js_wake_after(ms); }
std::uint64_t random_u64() {
    return (static_cast<std::uint64_t>(imquiz_js_random_u32()) << 32) | static_cast<std::uint64_t>(imquiz_js_random_u32());
}

void viewport_size(int& css_width, int& css_height, float& device_pixel_ratio) {
    imquiz_js_viewport(&css_width, &css_height, &device_pixel_ratio);
}

void set_document_info(const std::string& language, const std::string& title) {
    imquiz_js_set_document_info(language.c_str(), title.c_str());
}

int start_fetch(const std::string& url) { return imquiz_js_fetch_start(url.c_str()); }

bool take_fetch_result(FetchResult& result) {
    int id = 0, status = 0, length = 0;
    char* url = nullptr;
    char* error = nullptr;
    char* body = imquiz_js_fetch_take(&id, &status, &length, &url, &error);
    if (!body) return false;
    result.request_id = id;
    result.http_status = status;
    result.body.assign(body, static_cast<size_t>(length));
    std::free(body);
    result.url = adopt(url);
    result.error = adopt(error);
    return true;
}

std::optional<std::string> storage_get(const std::string& key) {
    char* value = imquiz_js_storage_get(key.c_str());
    if (!value) return std::nullopt;
    return adopt(value);
}
bool storage_set(const std::string& key, const std::string& value) {
    return imquiz_js_storage_set(key.c_str(), value.c_str()) != 0;
}
bool storage_remove(const std::string& key) { return imquiz_js_storage_remove(key.c_str()) != 0; }
std::vector<std::string> storage_keys() { return split_lines(adopt(imquiz_js_storage_keys())); }
bool storage_is_persistent() { return imquiz_js_storage_persistent() != 0; }
std::vector<std::string> take_changed_storage_keys() { return split_lines(adopt(imquiz_js_storage_take_changed())); }

void post_to_host(const std::string& json) { imquiz_js_post_to_host(json.c_str()); }
void report_content_height(int css_pixels) { imquiz_js_report_height(css_pixels); }

void download_text_file(const std::string& file_name, const std::string& text) {
    imquiz_js_download(file_name.c_str(), text.c_str());
}
void pick_text_file() { imquiz_js_pick_file(); }
bool take_picked_file(std::string& text) { return adopt(imquiz_js_take_picked_file(), text); }

void publish_state(const std::string& json) { imquiz_js_publish_state(json.c_str()); }
bool take_page_action(std::string& json) { return adopt(imquiz_js_take_page_action(), json); }
void signal(const char* event_name) { imquiz_js_signal(event_name); }

void open_link(const std::string& url) { imquiz_js_open_link(url.c_str()); }
void copy_text(const std::string& text) { imquiz_js_copy_text(text.c_str()); }

// A page's files are not watched: a new version reaches the learner on the next load.
std::vector<std::string> take_changed_files() { return {}; }
// web/text-field.js: a real <input> over the answer frame.
bool hosts_text_fields() { return true; }

MarkdownParser prepare_markdown(std::string& error) {
    char* problem = nullptr;
    int state = imquiz_js_markdown_prepare(&problem);
    if (problem) error = adopt(problem);
    return state == 1 ? MarkdownParser::Ready : state == 2 ? MarkdownParser::Failed : MarkdownParser::Loading;
}

bool open_rich_player() { return imquiz_js_open_rich_player() != 0; }

std::string parse_markdown(std::string_view markdown) {
    int size = 0;
    char* answer = imquiz_js_markdown_read(markdown.data(), static_cast<int>(markdown.size()), &size);
    if (!answer) return {};
    std::string out(answer, static_cast<std::size_t>(size));
    std::free(answer);
    return out;
}

MathTypesetter prepare_math(std::string_view bank_url, std::string& error) {
    char* problem = nullptr;
    int state = imquiz_js_math_prepare(bank_url.data(), static_cast<int>(bank_url.size()), &problem);
    if (problem) error = adopt(problem);
    return state == 1 ? MathTypesetter::Ready : state == 2 ? MathTypesetter::Failed : MathTypesetter::Loading;
}

std::string typeset_math(std::string_view tex, bool display) {
    return adopt(imquiz_js_math_typeset(tex.data(), static_cast<int>(tex.size()), display ? 1 : 0));
}

int start_picture_decode(std::string_view bytes, const char* mime, int pixel_width, int pixel_height,
                         const std::string& url) {
    return imquiz_js_picture_decode(bytes.data(), static_cast<int>(bytes.size()), mime, pixel_width, pixel_height,
                                    url.c_str());
}

bool take_decoded_picture(DecodedPicture& picture) {
    int id = 0, texture = 0, width = 0, height = 0;
    char* error = nullptr;
    if (!imquiz_js_picture_take(&id, &texture, &width, &height, &error)) return false;
    picture.request_id = id;
    picture.texture = static_cast<std::uint32_t>(texture);
    picture.width = width;
    picture.height = height;
    picture.error = adopt(error);
    return true;
}

void free_picture(std::uint32_t texture) { imquiz_js_picture_free(static_cast<int>(texture)); }

CodeHighlighter prepare_code_highlighter(std::string& error) {
    char* problem = nullptr;
    int state = imquiz_js_highlighter_prepare(&problem);
    if (problem) error = adopt(problem);
    return state == 1 ? CodeHighlighter::Ready : state == 2 ? CodeHighlighter::Failed : CodeHighlighter::Loading;
}

std::string highlight_code(std::string_view language, std::string_view code) {
    std::string name(language);
    return adopt(imquiz_js_highlight(name.c_str(), code.data(), static_cast<int>(code.size())));
}

}  // namespace imquiz::platform

// Called by boot.js on any input, resize or finished fetch.
extern "C" EMSCRIPTEN_KEEPALIVE void imquiz_wake() { imquiz::platform::request_frames(4); }

// Called by library_imquiz.js from requestAnimationFrame, once per frame asked for.
extern "C" EMSCRIPTEN_KEEPALIVE void imquiz_frame() {
    using imquiz::platform::main_loop;
    if (main_loop.frames_wanted <= 0) return;
    --main_loop.frames_wanted;
    main_loop.frame(main_loop.user);
    if (main_loop.frames_wanted > 0) imquiz_js_request_frame();
}
