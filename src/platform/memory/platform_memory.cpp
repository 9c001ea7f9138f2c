#include "platform/memory/platform_memory.h"

#include <algorithm>

namespace imquiz::platform {

namespace {

struct PendingFetch {
    int id;
    std::string url;
};

struct Internals {
    memory::World world;
    int next_request = 0;
    std::vector<PendingFetch> pending;
    std::deque<FetchResult> completed;
};

Internals& internals() {
    static Internals instance;
    return instance;
}

}  // namespace

namespace memory {

World& world() { return internals().world; }

void reset() { internals() = Internals{}; }

void deliver_fetches() {
    Internals& in = internals();
    for (const PendingFetch& pending : in.pending) {
        FetchResult result;
        result.request_id = pending.id;
        result.url = pending.url;
        auto status = in.world.http_status.find(pending.url);
        auto file = in.world.files.find(pending.url);
        if (status != in.world.http_status.end()) {
            result.http_status = status->second;
            result.error = "HTTP " + std::to_string(status->second);
            if (status->second >= 200 && status->second < 300 && file != in.world.files.end()) result.body = file->second;
        } else if (file != in.world.files.end()) {
            result.http_status = 200;
            result.body = file->second;
        } else {
            result.http_status = 404;
            result.error = "HTTP 404 (not found)";
        }
        in.completed.push_back(std::move(result));
    }
    in.pending.clear();
}

}  // namespace memory

void init() {}
void run_main_loop(FrameFunction, void*) {}
void request_frames(int) {}
void wake_after(int ms) { internals().world.wake_after_ms = ms; }
bool create_gl_surface() { return false; }
void resize_surface(int, int) {}
bool surface_keeps_last_drawing() { return false; }
double monotonic_ms() { return internals().world.now_ms; }
bool take_input_event(InputEvent&) { return false; }
void set_cursor(Cursor) {}

std::string url_parameter(const char* name) {
    auto& parameters = internals().world.url_parameters;
    auto it = parameters.find(name);
    return it == parameters.end() ? std::string() : it->second;
}
std::string development_bank_url() { return internals().world.development_bank_url; }
std::string browser_language() { return internals().world.browser_language; }
bool system_prefers_dark() { return internals().world.prefers_dark; }
bool system_prefers_reduced_motion() { return false; }
bool system_prefers_more_contrast() { return false; }
std::uint64_t random_u64() { return internals().world.random; }
double now_ms() { return internals().world.now_ms; }
void viewport_size(int& css_width, int& css_height, float& device_pixel_ratio) {
    css_width = 800;
    css_height = 600;
    device_pixel_ratio = 1;
}
void set_document_info(const std::string& language, const std::string& title) {
    internals().world.document_language = language;
    internals().world.document_title = title;
}

int start_fetch(const std::string& url) {
    Internals& in = internals();
    int id = ++in.next_request;
    in.world.fetched.push_back(url);
    in.pending.push_back({id, url});
    return id;
}
bool take_fetch_result(FetchResult& result) {
    Internals& in = internals();
    if (in.completed.empty()) return false;
    result = std::move(in.completed.front());
    in.completed.pop_front();
    return true;
}

std::optional<std::string> storage_get(const std::string& key) {
    auto& storage = internals().world.storage;
    auto it = storage.find(key);
    if (it == storage.end()) return std::nullopt;
    return it->second;
}
bool storage_set(const std::string& key, const std::string& value) {
    if (internals().world.storage_full) return false;
    internals().world.storage[key] = value;
    return true;
}
bool storage_remove(const std::string& key) {
    internals().world.storage.erase(key);
    return true;
}
std::vector<std::string> storage_keys() {
    std::vector<std::string> keys;
    for (const auto& [key, value] : internals().world.storage) keys.push_back(key);
    return keys;
}
bool storage_is_persistent() { return internals().world.storage_persistent; }
std::vector<std::string> take_changed_storage_keys() {
    std::vector<std::string> keys;
    keys.swap(internals().world.changed_storage_keys);
    return keys;
}

void post_to_host(const std::string& json) { internals().world.host_messages.push_back(json); }
void report_content_height(int) {}

void download_text_file(const std::string& file_name, const std::string& text) {
    internals().world.downloads.emplace_back(file_name, text);
}
void pick_text_file() { ++internals().world.file_pickers_opened; }
bool take_picked_file(std::string& text) {
    auto& picked = internals().world.picked_file;
    if (!picked) return false;
    text = std::move(*picked);
    picked.reset();
    return true;
}

void publish_state(const std::string& json) { internals().world.state_json = json; }
bool take_page_action(std::string& json) {
    auto& actions = internals().world.page_actions;
    if (actions.empty()) return false;
    json = std::move(actions.front());
    actions.pop_front();
    return true;
}

void open_link(const std::string& url) { internals().world.opened_links.push_back(url); }
void copy_text(const std::string& text) { internals().world.clipboard = text; }

std::vector<std::string> take_changed_files() {
    std::vector<std::string> urls;
    urls.swap(internals().world.changed_files);
    return urls;
}
bool hosts_text_fields() { return true; }  // tests type through page actions, as the web's field does

// Natively md4c is linked into the engine (engine/markdown/md4c_reader.cpp): nothing asks here.
std::string parse_markdown(std::string_view) { return {}; }

bool open_rich_player() { return false; }  // native builds are the rich player: never asked

MarkdownParser prepare_markdown(std::string& error) {
    memory::World& world = internals().world;
    ++world.markdown_requests;
    if (world.markdown == MarkdownParser::Failed) error = "imquiz-markdown.wasm: could not reach the server (offline?)";
    return world.markdown;
}

// No math module here: formulas show as their TeX, as they do on the web before imquiz-math.js
// has come (a test may give the world a typesetter of its own, World::typeset).
MathTypesetter prepare_math(std::string_view bank_url, std::string& error) {
    memory::World& world = internals().world;
    ++world.math_requests;
    world.math_bank = std::string(bank_url);
    if (world.math == MathTypesetter::Failed) error = "imquiz-math.js: could not reach the server (offline?)";
    return world.math;
}

std::string typeset_math(std::string_view tex, bool display) {
    memory::World& world = internals().world;
    if (world.math != MathTypesetter::Ready || !world.typeset) return {};
    return world.typeset(tex, display);
}

// Pictures decode at once into made-up texture names, 1, 2, ...; a test may refuse them all.
int start_picture_decode(std::string_view bytes, const char* mime, int pixel_width, int pixel_height,
                         const std::string&) {
    memory::World& world = internals().world;
    const int id = ++world.picture_requests;
    DecodedPicture picture;
    picture.request_id = id;
    if (world.pictures_decode) {
        picture.texture = static_cast<std::uint32_t>(id);
        picture.width = pixel_width;
        picture.height = pixel_height;
        world.live_pictures.push_back(picture.texture);
    } else {
        picture.error = "the browser could not decode it";
    }
    world.decoded_pictures.push_back(std::move(picture));
    world.picture_mimes.push_back(mime);
    (void)bytes;
    return id;
}
bool take_decoded_picture(DecodedPicture& picture) {
    auto& queue = internals().world.decoded_pictures;
    if (queue.empty()) return false;
    picture = std::move(queue.front());
    queue.pop_front();
    return true;
}
void free_picture(std::uint32_t texture) {
    auto& live = internals().world.live_pictures;
    live.erase(std::remove(live.begin(), live.end(), texture), live.end());
}

CodeHighlighter prepare_code_highlighter(std::string& error) {
    memory::World& world = internals().world;
    ++world.code_highlighter_requests;
    if (world.code_highlighter == CodeHighlighter::Failed) error = "no syntax highlighter in this build (native)";
    return world.code_highlighter;
}

std::string highlight_code(std::string_view language, std::string_view) {
    memory::World& world = internals().world;
    if (world.code_highlighter != CodeHighlighter::Ready) return {};
    world.highlighted.emplace_back(language);
    return world.code_colours;
}

void signal(const char* event_name) { internals().world.signals.push_back(event_name); }

}  // namespace imquiz::platform
