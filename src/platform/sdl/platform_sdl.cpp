// platform.h on the desktop, with SDL2 and OpenGL ES 3: a window (or an offscreen framebuffer for
// --screenshot), input, a loop that sleeps until something happens, files from the local disk
// (watched with --watch), storage in one JSON file in the user's data folder, pictures decoded by
// librsvg (SVG) and gdk-pixbuf (bitmaps). No math typesetter and no syntax colours here: formulas
// show as their TeX and code plain, as on a page whose modules could not come.
#include "platform/sdl/platform_sdl.h"

#include "platform/platform.h"

#include <SDL.h>
#include <GLES3/gl3.h>
#include <cairo.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <librsvg/rsvg.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <random>
#include <sstream>

namespace imquiz::platform {

namespace {

// A file the app read, and how it looked then (--watch compares).
struct WatchedFile {
    std::string url, path;
    long long mtime_ns = -1, size = -1;
};

struct Internals {
    sdl::Options options;
    SDL_Window* window = nullptr;
    SDL_GLContext context = nullptr;
    GLuint offscreen_framebuffer = 0, offscreen_colour = 0;
    int frames_wanted = 1;
    double wake_at = -1;             // monotonic_ms() of the frame wake_after() asked for (-1: none)
    bool quit = false;
    std::deque<InputEvent> input;
    int next_request = 0;
    std::deque<FetchResult> fetched;
    std::deque<DecodedPicture> pictures;
    std::vector<WatchedFile> watched;
    std::vector<std::string> changed;
    Uint32 last_watch_check = 0;
    nlohmann::json storage = nlohmann::json::object();
    std::string storage_path;
    bool storage_writable = false;
    SDL_Cursor* cursors[10] = {};
    // Tests and --screenshot
    std::string document, items = "null";  // the state file's
    std::vector<std::string> signals;
    bool published = false;
    // Asleep, with nothing asked for: the last frame's rectangles are where things stay. A test
    // aims the pointer only then (a state written with a change carries the frame before ImGui
    // moved things; a click there missed under load).
    bool resting = false;
    bool screenshot_done = false;
    std::string screenshot_error;
};

Internals& in() {
    static Internals instance;
    return instance;
}

volatile std::sig_atomic_t window_shot_wanted = 0;
void on_window_shot_signal(int) { window_shot_wanted = 1; }

std::string read_file(const std::string& path, bool& ok) {
    std::ifstream file(path, std::ios::binary);
    ok = static_cast<bool>(file);
    std::ostringstream buffer;
    if (ok) buffer << file.rdbuf();
    return buffer.str();
}

bool stat_file(const std::string& path, long long& mtime_ns, long long& size) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return false;
    mtime_ns = static_cast<long long>(info.st_mtim.tv_sec) * 1'000'000'000LL + info.st_mtim.tv_nsec;
    size = static_cast<long long>(info.st_size);
    return true;
}

// The app's URL, as a file of this disk: fonts by name, "quizzes/..." in the catalog's folder,
// absolute paths as they are (the bank file, and what it names beside it).
std::string path_of(const std::string& url) {
    const sdl::Options& options = in().options;
    auto font = options.fonts.find(url);
    if (font != options.fonts.end()) return font->second;
    if (!url.empty() && url[0] == '/') return url;
    const std::string prefix = "quizzes/";
    if (url.compare(0, prefix.size(), prefix) == 0 && !options.catalog_folder.empty())
        return options.catalog_folder + "/" + url.substr(prefix.size());
    return "";
}

void watch(const std::string& url, const std::string& path) {
    if (!in().options.watch || url.compare(0, 6, "fonts/") == 0) return;
    for (const WatchedFile& file : in().watched)
        if (file.url == url) return;
    WatchedFile file{url, path};
    stat_file(path, file.mtime_ns, file.size);
    in().watched.push_back(file);
}

// A file that changed since it was read is reported once; one caught missing (an editor that
// saves by renaming) is looked at again next time.
void check_watched_files() {
    Uint32 now = SDL_GetTicks();
    if (!in().options.watch || now - in().last_watch_check < 200) return;
    in().last_watch_check = now;
    for (WatchedFile& file : in().watched) {
        long long mtime = 0, size = 0;
        if (!stat_file(file.path, mtime, size)) continue;
        if (mtime == file.mtime_ns && size == file.size) continue;
        file.mtime_ns = mtime;
        file.size = size;
        in().changed.push_back(file.url);
        in().frames_wanted = std::max(in().frames_wanted, 1);
    }
}

void save_storage() {
    Internals& i = in();
    if (i.storage_path.empty()) return;
    const std::string temporary = i.storage_path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << i.storage.dump();
        if (!out) {
            i.storage_writable = false;
            return;
        }
    }
    // Whole or not at all: a crash mid-write leaves the last complete file.
    i.storage_writable = std::rename(temporary.c_str(), i.storage_path.c_str()) == 0;
}

void open_storage() {
    Internals& i = in();
    std::string folder = i.options.data_folder;
    if (folder.empty()) {
        char* pref = SDL_GetPrefPath("ImQuiz", "imquiz");
        if (pref) folder = pref;
        SDL_free(pref);
    }
    if (folder.empty()) return;  // memory only: the app says progress will not be kept
    if (folder.back() != '/') folder += '/';
    ::mkdir(folder.c_str(), 0700);
    i.storage_path = folder + "storage.json";
    bool ok = false;
    std::string text = read_file(i.storage_path, ok);
    if (ok) {
        nlohmann::json stored = nlohmann::json::parse(text, nullptr, false);
        if (stored.is_object()) {
            i.storage = std::move(stored);
        } else {
            // Never lose progress silently: the unreadable file is kept beside the new one.
            std::rename(i.storage_path.c_str(), (i.storage_path + ".unreadable").c_str());
            std::fprintf(stderr, "imquiz-desktop: %s could not be read; kept as storage.json.unreadable\n",
                         i.storage_path.c_str());
        }
    }
    std::ofstream probe(i.storage_path + ".tmp", std::ios::binary | std::ios::trunc);
    i.storage_writable = static_cast<bool>(probe);
    probe.close();
    std::remove((i.storage_path + ".tmp").c_str());
}

Key key_of(SDL_Keycode code) {
    switch (code) {
    case SDLK_TAB: return Key::Tab;
    case SDLK_LEFT: return Key::Left;
    case SDLK_RIGHT: return Key::Right;
    case SDLK_UP: return Key::Up;
    case SDLK_DOWN: return Key::Down;
    case SDLK_PAGEUP: return Key::PageUp;
    case SDLK_PAGEDOWN: return Key::PageDown;
    case SDLK_HOME: return Key::Home;
    case SDLK_END: return Key::End;
    case SDLK_INSERT: return Key::Insert;
    case SDLK_DELETE: return Key::Delete;
    case SDLK_BACKSPACE: return Key::Backspace;
    case SDLK_SPACE: return Key::Space;
    case SDLK_RETURN: return Key::Enter;
    case SDLK_ESCAPE: return Key::Escape;
    case SDLK_KP_ENTER: return Key::KeypadEnter;
    case SDLK_a: return Key::A;
    case SDLK_c: return Key::C;
    case SDLK_v: return Key::V;
    case SDLK_x: return Key::X;
    case SDLK_y: return Key::Y;
    case SDLK_z: return Key::Z;
    default: return Key::None;
    }
}

// Logical pixels per window coordinate: SDL reports the mouse in window coordinates, which are
// device pixels on X11 and points on macOS; the app wants logical ("CSS") pixels.
float pointer_scale() {
    int width = 0, height = 0, pixels_w = 0, pixels_h = 0;
    float ratio = 1;
    SDL_GetWindowSize(in().window, &width, &height);
    SDL_GL_GetDrawableSize(in().window, &pixels_w, &pixels_h);
    int css_w = 0, css_h = 0;
    viewport_size(css_w, css_h, ratio);
    return width > 0 ? static_cast<float>(css_w) / static_cast<float>(width) : 1.0f;
}

void take_event(const SDL_Event& event) {
    Internals& i = in();
    InputEvent input;
    const SDL_Keymod mods = SDL_GetModState();
    input.shift = mods & KMOD_SHIFT;
    input.ctrl = mods & KMOD_CTRL;
    input.alt = mods & KMOD_ALT;
    input.super = mods & KMOD_GUI;
    switch (event.type) {
    case SDL_QUIT: i.quit = true; return;
    case SDL_MOUSEMOTION:
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP: {
        const bool motion = event.type == SDL_MOUSEMOTION;
        input.kind = motion ? InputEvent::Kind::PointerMove
                     : event.type == SDL_MOUSEBUTTONDOWN ? InputEvent::Kind::PointerDown
                                                         : InputEvent::Kind::PointerUp;
        const float scale = pointer_scale();
        input.x = static_cast<float>(motion ? event.motion.x : event.button.x) * scale;
        input.y = static_cast<float>(motion ? event.motion.y : event.button.y) * scale;
        input.touch = (motion ? event.motion.which : event.button.which) == SDL_TOUCH_MOUSEID;
        if (!motion) {
            const Uint8 button = event.button.button;
            input.button = button == SDL_BUTTON_RIGHT ? 1 : button == SDL_BUTTON_MIDDLE ? 2 : 0;
            if (button != SDL_BUTTON_LEFT && button != SDL_BUTTON_RIGHT && button != SDL_BUTTON_MIDDLE) return;
        }
        break;
    }
    case SDL_MOUSEWHEEL:
        input.kind = InputEvent::Kind::Wheel;
        input.wheel_x = event.wheel.preciseX;
        input.wheel_y = event.wheel.preciseY;
        break;
    case SDL_KEYDOWN:
    case SDL_KEYUP:
        input.kind = event.type == SDL_KEYDOWN ? InputEvent::Kind::KeyDown : InputEvent::Kind::KeyUp;
        input.key = key_of(event.key.keysym.sym);
        if (input.key == Key::None) return;
        break;
    case SDL_TEXTINPUT:
        input.kind = InputEvent::Kind::Text;
        input.text = event.text.text;
        break;
    case SDL_WINDOWEVENT:
        switch (event.window.event) {
        case SDL_WINDOWEVENT_FOCUS_GAINED: input.kind = InputEvent::Kind::FocusIn; break;
        case SDL_WINDOWEVENT_FOCUS_LOST: input.kind = InputEvent::Kind::FocusOut; break;
        case SDL_WINDOWEVENT_LEAVE: input.kind = InputEvent::Kind::PointerLeave; break;
        default: i.frames_wanted = std::max(i.frames_wanted, 2); return;  // resized, shown, exposed
        }
        break;
    default: return;
    }
    i.input.push_back(std::move(input));
    // As on the web (imquiz_wake): an input needs a few frames to settle. A list opened on a
    // release is measured on a hidden frame and drawn on the next; with one frame it never showed.
    i.frames_wanted = std::max(i.frames_wanted, 4);
}

// The frame just drawn (the bound framebuffer), bottom row first in GL, written top row first.
bool write_png(const std::string& path, int width, int height, std::string& error) {
    std::vector<unsigned char> pixels(static_cast<std::size_t>(width) * height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    unsigned char* data = cairo_image_surface_get_data(surface);
    const int stride = cairo_image_surface_get_stride(surface);
    cairo_surface_flush(surface);
    for (int y = 0; y < height; ++y) {
        const unsigned char* from = &pixels[static_cast<std::size_t>(height - 1 - y) * width * 4];
        auto* to = reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
        for (int x = 0; x < width; ++x, from += 4)
            to[x] = 0xFF000000u | (std::uint32_t(from[0]) << 16) | (std::uint32_t(from[1]) << 8) | from[2];
    }
    cairo_surface_mark_dirty(surface);
    cairo_status_t status = cairo_surface_write_to_png(surface, path.c_str());
    cairo_surface_destroy(surface);
    if (status != CAIRO_STATUS_SUCCESS) error = path + ": " + cairo_status_to_string(status);
    return status == CAIRO_STATUS_SUCCESS;
}

void write_state_file() {
    Internals& i = in();
    if (i.options.state_file.empty()) return;
    nlohmann::json signals = i.signals;
    std::string text = "{\"signals\":" + signals.dump() + ",\"resting\":" +
                       (i.resting ? "true" : "false") + ",\"items\":" + i.items +
                       ",\"state\":" + (i.document.empty() ? "null" : i.document) + "}";
    const std::string temporary = i.options.state_file + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << text;
    }
    std::rename(temporary.c_str(), i.options.state_file.c_str());
}

GLuint upload_texture(const unsigned char* rgba, int width, int height) {
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    return texture;
}

// An SVG drawn at the size asked for, into straight-alpha RGBA (cairo's is premultiplied BGRA).
bool render_svg(std::string_view bytes, int width, int height, std::vector<unsigned char>& rgba, std::string& error) {
    GError* failure = nullptr;
    RsvgHandle* handle =
        rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(bytes.data()), bytes.size(), &failure);
    if (!handle) {
        error = failure ? failure->message : "not an SVG librsvg can read";
        if (failure) g_error_free(failure);
        return false;
    }
    cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t* cr = cairo_create(surface);
    RsvgRectangle viewport{0, 0, static_cast<double>(width), static_cast<double>(height)};
    bool ok = rsvg_handle_render_document(handle, cr, &viewport, &failure);
    if (!ok) {
        error = failure ? failure->message : "librsvg could not draw it";
        if (failure) g_error_free(failure);
    }
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    if (ok) {
        const unsigned char* data = cairo_image_surface_get_data(surface);
        const int stride = cairo_image_surface_get_stride(surface);
        rgba.resize(static_cast<std::size_t>(width) * height * 4);
        for (int y = 0; y < height; ++y) {
            const auto* row = reinterpret_cast<const std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
            for (int x = 0; x < width; ++x) {
                std::uint32_t p = row[x];
                unsigned a = p >> 24;
                unsigned char* out = &rgba[(static_cast<std::size_t>(y) * width + x) * 4];
                auto straight = [a](unsigned c) { return static_cast<unsigned char>(a ? std::min(255u, c * 255 / a) : 0); };
                out[0] = straight((p >> 16) & 0xFF);
                out[1] = straight((p >> 8) & 0xFF);
                out[2] = straight(p & 0xFF);
                out[3] = static_cast<unsigned char>(a);
            }
        }
    }
    cairo_surface_destroy(surface);
    g_object_unref(handle);
    return ok;
}

// PNG, JPEG (and WebP where gdk-pixbuf has its loader), scaled to the size asked for.
bool decode_bitmap(std::string_view bytes, int width, int height, std::vector<unsigned char>& rgba, std::string& error) {
    GdkPixbufLoader* loader = gdk_pixbuf_loader_new();
    GError* failure = nullptr;
    bool ok = gdk_pixbuf_loader_write(loader, reinterpret_cast<const guchar*>(bytes.data()), bytes.size(), &failure) &&
              gdk_pixbuf_loader_close(loader, &failure);
    GdkPixbuf* pixbuf = ok ? gdk_pixbuf_loader_get_pixbuf(loader) : nullptr;
    if (!pixbuf) {
        error = failure ? failure->message : "gdk-pixbuf could not read it";
        if (failure) g_error_free(failure);
        if (!ok) gdk_pixbuf_loader_close(loader, nullptr);
        g_object_unref(loader);
        return false;
    }
    GdkPixbuf* with_alpha = gdk_pixbuf_add_alpha(pixbuf, FALSE, 0, 0, 0);
    GdkPixbuf* scaled = gdk_pixbuf_scale_simple(with_alpha, width, height, GDK_INTERP_BILINEAR);
    const int stride = gdk_pixbuf_get_rowstride(scaled);
    const guchar* data = gdk_pixbuf_read_pixels(scaled);
    rgba.resize(static_cast<std::size_t>(width) * height * 4);
    for (int y = 0; y < height; ++y)
        std::copy_n(data + static_cast<std::ptrdiff_t>(y) * stride, width * 4, &rgba[static_cast<std::size_t>(y) * width * 4]);
    g_object_unref(scaled);
    g_object_unref(with_alpha);
    g_object_unref(loader);
    return true;
}

}  // namespace

namespace sdl {

void configure(Options options) { in().options = std::move(options); }

bool screenshot_written(std::string& error) {
    error = in().screenshot_error;
    return in().screenshot_done;
}

void set_text_input_position(int x, int y) {
    if (!in().window) return;
    const float scale = pointer_scale();
    SDL_Rect rect{static_cast<int>(static_cast<float>(x) / scale), static_cast<int>(static_cast<float>(y) / scale), 1, 20};
    SDL_SetTextInputRect(&rect);
}

std::string clipboard_text() {
    char* text = SDL_GetClipboardText();
    std::string copy = text ? text : "";
    SDL_free(text);
    return copy;
}

}  // namespace sdl

// ---- Start-up and the main loop ----

void init() {
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0)
        std::fprintf(stderr, "imquiz-desktop: SDL could not start: %s\n", SDL_GetError());
    open_storage();
    if (!in().options.state_file.empty()) std::signal(SIGUSR1, on_window_shot_signal);
}

bool create_gl_surface() {
    Internals& i = in();
    const bool offscreen = !i.options.screenshot.empty();
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_ALLOW_HIGHDPI | (offscreen ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE);
    i.window = SDL_CreateWindow("ImQuiz", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, i.options.width,
                                i.options.height, flags);
    if (i.window) i.context = SDL_GL_CreateContext(i.window);
    if (!i.context) {
        std::fprintf(stderr, "imquiz-desktop: no OpenGL ES 3 window here: %s\n", SDL_GetError());
        return false;
    }
    SDL_GL_MakeCurrent(i.window, i.context);
    SDL_GL_SetSwapInterval(1);
    if (offscreen) {
        // The screenshot's own framebuffer: a hidden window's may not hold what was drawn.
        float ratio = i.options.scale > 0 ? i.options.scale : 1.0f;
        int width = static_cast<int>(i.options.width * ratio), height = static_cast<int>(i.options.height * ratio);
        glGenRenderbuffers(1, &i.offscreen_colour);
        glBindRenderbuffer(GL_RENDERBUFFER, i.offscreen_colour);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
        glGenFramebuffers(1, &i.offscreen_framebuffer);
        glBindFramebuffer(GL_FRAMEBUFFER, i.offscreen_framebuffer);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, i.offscreen_colour);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            std::fprintf(stderr, "imquiz-desktop: no offscreen framebuffer of %dx%d\n", width, height);
            return false;
        }
    }
    SDL_StartTextInput();
    return true;
}

void run_main_loop(FrameFunction frame, void* user) {
    Internals& i = in();
    const bool offscreen = !i.options.screenshot.empty();
    // --screenshot: frames until the app has drawn and nothing is on its way (no file, picture or
    // frame asked for) three frames running, so that ImGui's layout has settled too.
    int quiet_frames = 0;
    for (int frames = 0; !i.quit; ++frames) {
        SDL_Event event;
        if (offscreen || i.frames_wanted > 0 || !i.fetched.empty() || !i.pictures.empty()) {
            while (SDL_PollEvent(&event)) take_event(event);
        } else {
            // Asleep until something happens: no frame is drawn at rest. Watching (or a test's
            // state file) wakes it five times a second to look at the files (or the signal).
            // A wake asked for (an exam's countdown) bounds the wait too.
            const bool timed = i.options.watch || !i.options.state_file.empty();
            int timeout = timed ? 200 : -1;
            if (i.wake_at >= 0) {
                const int until = std::max(0, static_cast<int>(i.wake_at - monotonic_ms()));
                timeout = timeout < 0 ? until : std::min(timeout, until);
            }
            if (timeout < 0 ? SDL_WaitEvent(&event) : SDL_WaitEventTimeout(&event, timeout)) {
                take_event(event);
                while (SDL_PollEvent(&event)) take_event(event);
            }
            if (i.wake_at >= 0 && monotonic_ms() >= i.wake_at) {
                i.wake_at = -1;
                i.frames_wanted = std::max(i.frames_wanted, 1);
            }
        }
        check_watched_files();
        if (window_shot_wanted) i.frames_wanted = std::max(i.frames_wanted, 1);
        if (i.quit) break;
        const bool busy = i.frames_wanted > 0 || !i.fetched.empty() || !i.pictures.empty() || !i.changed.empty();
        if (!busy && !offscreen) {
            if (!i.resting) {
                i.resting = true;
                write_state_file();
            }
            continue;
        }
        i.resting = false;
        if (i.frames_wanted > 0) --i.frames_wanted;
        if (!frame(user)) break;
        int pixel_width = 0, pixel_height = 0;
        if (offscreen) {
            const float ratio = i.options.scale > 0 ? i.options.scale : 1.0f;
            pixel_width = static_cast<int>(i.options.width * ratio);
            pixel_height = static_cast<int>(i.options.height * ratio);
            quiet_frames = i.published && !busy ? quiet_frames + 1 : 0;
            if (quiet_frames >= 3) {
                i.screenshot_done = write_png(i.options.screenshot, pixel_width, pixel_height, i.screenshot_error);
                return;
            }
            if (frames > 2000) {
                i.screenshot_error = "the app did not settle in 2,000 frames";
                return;
            }
            continue;
        }
        if (window_shot_wanted) {
            window_shot_wanted = 0;
            SDL_GL_GetDrawableSize(i.window, &pixel_width, &pixel_height);
            std::string error;
            if (!write_png(i.options.state_file + ".png", pixel_width, pixel_height, error))
                std::fprintf(stderr, "imquiz-desktop: %s\n", error.c_str());
            i.signals.push_back("window-shot");
            write_state_file();
        }
        SDL_GL_SwapWindow(i.window);
    }
}

void request_frames(int count) { in().frames_wanted = std::max(in().frames_wanted, count); }
void wake_after(int ms) { in().wake_at = monotonic_ms() + std::max(0, ms); }

// ---- The drawing surface and its input ----

void resize_surface(int, int) {}  // the window's drawable follows the window; the offscreen one is fixed
bool surface_keeps_last_drawing() { return false; }  // SDL_GL_SwapWindow shows the back buffer

double monotonic_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

bool take_input_event(InputEvent& event) {
    if (in().input.empty()) return false;
    event = std::move(in().input.front());
    in().input.pop_front();
    return true;
}

void set_cursor(Cursor cursor) {
    Internals& i = in();
    if (cursor == Cursor::Hidden) {
        SDL_ShowCursor(SDL_DISABLE);
        return;
    }
    SDL_ShowCursor(SDL_ENABLE);
    static const SDL_SystemCursor system[] = {
        SDL_SYSTEM_CURSOR_ARROW,    SDL_SYSTEM_CURSOR_IBEAM,    SDL_SYSTEM_CURSOR_HAND,     SDL_SYSTEM_CURSOR_SIZEALL,
        SDL_SYSTEM_CURSOR_SIZENS,   SDL_SYSTEM_CURSOR_SIZEWE,   SDL_SYSTEM_CURSOR_SIZENESW, SDL_SYSTEM_CURSOR_SIZENWSE,
        SDL_SYSTEM_CURSOR_NO,       SDL_SYSTEM_CURSOR_ARROW};
    const int index = static_cast<int>(cursor);
    if (!i.cursors[index]) i.cursors[index] = SDL_CreateSystemCursor(system[index]);
    if (i.cursors[index]) SDL_SetCursor(i.cursors[index]);
}

// ---- Environment ----

std::string url_parameter(const char* name) {
    const auto& parameters = in().options.parameters;
    auto found = parameters.find(name);
    return found == parameters.end() ? std::string() : found->second;
}

std::string development_bank_url() { return in().options.bank_file; }

std::string browser_language() {
    std::string language = "en";
    if (SDL_Locale* locales = SDL_GetPreferredLocales()) {
        if (locales[0].language) {
            language = locales[0].language;
            if (locales[0].country) language += std::string("-") + locales[0].country;
        }
        SDL_free(locales);
    }
    std::transform(language.begin(), language.end(), language.begin(), [](unsigned char c) { return std::tolower(c); });
    return language;
}

// SDL2 does not report the system's theme; GTK's setting in the environment is the one sign.
bool system_prefers_dark() {
    const char* theme = std::getenv("GTK_THEME");
    return theme && std::string(theme).find(":dark") != std::string::npos;
}
bool system_prefers_reduced_motion() { return false; }
bool system_prefers_more_contrast() { return false; }

std::uint64_t random_u64() {
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

double now_ms() {
    using namespace std::chrono;
    return static_cast<double>(duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count());
}

void viewport_size(int& css_width, int& css_height, float& device_pixel_ratio) {
    const Internals& i = in();
    if (!i.options.screenshot.empty() || !i.window) {
        css_width = i.options.width;
        css_height = i.options.height;
        device_pixel_ratio = i.options.scale > 0 ? i.options.scale : 1.0f;
        return;
    }
    int pixel_width = 0, pixel_height = 0, width = 0, height = 0;
    SDL_GL_GetDrawableSize(i.window, &pixel_width, &pixel_height);
    SDL_GetWindowSize(i.window, &width, &height);
    // --scale, else the drawable's pixels per window point (2 on a Retina Mac), else on X11
    // (where that is 1) the desktop's GDK_SCALE, the one HiDPI setting X11 desktops share.
    device_pixel_ratio = i.options.scale > 0 ? i.options.scale
                         : width > 0         ? static_cast<float>(pixel_width) / static_cast<float>(width)
                                             : 1.0f;
    if (i.options.scale <= 0 && device_pixel_ratio == 1.0f) {
        const char* gdk_scale = std::getenv("GDK_SCALE");
        const float wanted = gdk_scale ? std::strtof(gdk_scale, nullptr) : 0.0f;
        if (wanted >= 1.0f && wanted <= 4.0f) device_pixel_ratio = wanted;
    }
    css_width = static_cast<int>(static_cast<float>(pixel_width) / device_pixel_ratio);
    css_height = static_cast<int>(static_cast<float>(pixel_height) / device_pixel_ratio);
}

void set_document_info(const std::string&, const std::string& title) {
    if (in().window) SDL_SetWindowTitle(in().window, title.c_str());
}

// ---- Files ----

int start_fetch(const std::string& url) {
    Internals& i = in();
    FetchResult result;
    result.request_id = ++i.next_request;
    result.url = url;
    const std::string path = path_of(url);
    bool ok = false;
    if (!path.empty()) result.body = read_file(path, ok);
    if (ok) {
        result.http_status = 200;
    } else {
        result.http_status = 404;
        result.error = (path.empty() ? url : path) + " could not be opened";
    }
    if (!path.empty()) watch(url, path);
    i.fetched.push_back(std::move(result));  // answered on the next poll, as the web's fetches are
    i.frames_wanted = std::max(i.frames_wanted, 1);
    return i.next_request;
}

bool take_fetch_result(FetchResult& result) {
    if (in().fetched.empty()) return false;
    result = std::move(in().fetched.front());
    in().fetched.pop_front();
    return true;
}

std::vector<std::string> take_changed_files() {
    std::vector<std::string> urls;
    urls.swap(in().changed);
    return urls;
}

// ---- Markdown, math, pictures, code colours ----

// md4c is linked into the engine natively (engine/markdown/md4c_reader.cpp): always Ready.
MarkdownParser prepare_markdown(std::string&) { return MarkdownParser::Ready; }
std::string parse_markdown(std::string_view) { return {}; }
bool open_rich_player() { return false; }  // the desktop is the rich player

// MathJax is JavaScript: formulas show as their TeX on the desktop.
MathTypesetter prepare_math(std::string_view, std::string&) { return MathTypesetter::Absent; }
std::string typeset_math(std::string_view, bool) { return {}; }

int start_picture_decode(std::string_view bytes, const char* mime, int pixel_width, int pixel_height,
                         const std::string&) {
    Internals& i = in();
    DecodedPicture picture;
    picture.request_id = ++i.next_request;
    std::vector<unsigned char> rgba;
    const bool svg = std::string(mime) == "image/svg+xml";
    bool ok = svg ? render_svg(bytes, pixel_width, pixel_height, rgba, picture.error)
                  : decode_bitmap(bytes, pixel_width, pixel_height, rgba, picture.error);
    if (ok) {
        picture.texture = upload_texture(rgba.data(), pixel_width, pixel_height);
        picture.width = pixel_width;
        picture.height = pixel_height;
    }
    i.pictures.push_back(std::move(picture));
    i.frames_wanted = std::max(i.frames_wanted, 1);
    return i.next_request;
}

bool take_decoded_picture(DecodedPicture& picture) {
    if (in().pictures.empty()) return false;
    picture = std::move(in().pictures.front());
    in().pictures.pop_front();
    return true;
}

void free_picture(std::uint32_t texture) {
    GLuint name = texture;
    glDeleteTextures(1, &name);
}

CodeHighlighter prepare_code_highlighter(std::string& error) {
    error = "the desktop player has no syntax highlighter (Prism is JavaScript)";
    return CodeHighlighter::Failed;
}
std::string highlight_code(std::string_view, std::string_view) { return {}; }

// ---- Storage ----

std::optional<std::string> storage_get(const std::string& key) {
    const nlohmann::json& storage = in().storage;
    auto found = storage.find(key);
    if (found == storage.end() || !found->is_string()) return std::nullopt;
    return found->get<std::string>();
}

bool storage_set(const std::string& key, const std::string& value) {
    in().storage[key] = value;
    save_storage();
    return in().storage_writable;
}

bool storage_remove(const std::string& key) {
    in().storage.erase(key);
    save_storage();
    return true;
}

std::vector<std::string> storage_keys() {
    std::vector<std::string> keys;
    for (const auto& [key, value] : in().storage.items()) keys.push_back(key);
    return keys;
}

bool storage_is_persistent() { return in().storage_writable; }
std::vector<std::string> take_changed_storage_keys() { return {}; }  // one window: no other tab

// ---- Host page: none on the desktop ----

void post_to_host(const std::string&) {}
void report_content_height(int) {}

// ---- Effects ----

// The export goes to the data folder, and the terminal says where.
void download_text_file(const std::string& file_name, const std::string& text) {
    std::string folder = in().storage_path.substr(0, in().storage_path.rfind('/') + 1);
    std::ofstream out(folder + file_name, std::ios::binary | std::ios::trunc);
    out << text;
    std::printf("imquiz-desktop: wrote %s%s\n", folder.c_str(), file_name.c_str());
}

void open_link(const std::string& url) { SDL_OpenURL(url.c_str()); }
void copy_text(const std::string& text) { SDL_SetClipboardText(text.c_str()); }

// SDL2 has no file dialog: importing progress is a web feature for now.
void pick_text_file() { std::fprintf(stderr, "imquiz-desktop: importing progress needs the web player\n"); }
bool take_picked_file(std::string&) { return false; }

bool hosts_text_fields() { return false; }  // the interface edits typed answers itself

// ---- Observability ----

void publish_state(const std::string& json) {
    Internals& i = in();
    // A full document carries its items; an array alone is this frame's rectangles (a scroll).
    if (!json.empty() && json[0] == '[') {
        i.items = json;
    } else {
        i.document = json;
        i.items = "null";
    }
    i.published = true;
    write_state_file();
}

bool take_page_action(std::string&) { return false; }  // no page: the window's input is all

void signal(const char* event_name) {
    in().signals.push_back(event_name);
    write_state_file();
}

}  // namespace imquiz::platform
