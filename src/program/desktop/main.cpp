// imquiz-desktop: the same player in a window of its own (SDL2, OpenGL ES 3), for authors:
//   imquiz-desktop [FILE.json | FOLDER] [--watch] [--quiz ID] [--lang L] [--theme T]
//                  [--size WxH] [--scale S] [--screenshot FILE.png] [--data DIR]
// Reads its command line into platform/sdl's options, then runs the frame every shell runs
// (program/frame.h).
#include "platform/platform.h"
#include "platform/sdl/platform_sdl.h"
#include "program/frame.h"

#include <imgui.h>

#include <sys/stat.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using imquiz::platform::sdl::Options;

const char* const usage =
    "usage: imquiz-desktop [FILE.json | FOLDER] [options]\n"
    "  FILE.json            play one bank (its progress kept apart, as a bank= link on the web)\n"
    "  FOLDER               play the catalog of FOLDER/index.json (default: the quizzes/ it was built with)\n"
    "  --watch              reload a bank, or an image, the moment it is saved\n"
    "  --quiz ID            open that quiz of the catalog\n"
    "  --lang en|ru|id      interface and content language\n"
    "  --theme light|dark|system\n"
    "  --size WxH           window size in logical pixels (default 960x720)\n"
    "  --scale S            device pixels per logical pixel (default: the display's)\n"
    "  --screenshot FILE    draw one frame offscreen, write it as a PNG, and exit\n"
    "  --data DIR           keep progress and settings in DIR (default: the user's data folder)\n"
    "  --state-file FILE    (tests) write the published screen to FILE; SIGUSR1 writes FILE.png\n";

bool is_folder(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

std::string absolute(const std::string& path) {
    char resolved[PATH_MAX];
    return ::realpath(path.c_str(), resolved) ? std::string(resolved) : path;
}

// False (with a message) when the command line cannot be used.
bool read_arguments(int argc, char** argv, Options& options) {
    std::string target;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](const char* name) -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "imquiz-desktop: %s needs a value\n%s", name, usage);
                return nullptr;
            }
            return argv[++i];
        };
        const char* v = nullptr;
        if (arg == "--watch") {
            options.watch = true;
        } else if (arg == "--quiz" || arg == "--lang" || arg == "--theme") {
            if (!(v = value(arg.c_str()))) return false;
            options.parameters[arg.substr(2)] = v;
        } else if (arg == "--size") {
            if (!(v = value("--size"))) return false;
            if (std::sscanf(v, "%dx%d", &options.width, &options.height) != 2 || options.width < 200 ||
                options.height < 200 || options.width > 8192 || options.height > 8192) {
                std::fprintf(stderr, "imquiz-desktop: --size %s: expected WxH, each from 200 to 8192\n", v);
                return false;
            }
        } else if (arg == "--scale") {
            if (!(v = value("--scale"))) return false;
            options.scale = std::strtof(v, nullptr);
            if (!(options.scale >= 0.5f && options.scale <= 4.0f)) {
                std::fprintf(stderr, "imquiz-desktop: --scale %s: expected a number from 0.5 to 4\n", v);
                return false;
            }
        } else if (arg == "--screenshot") {
            if (!(v = value("--screenshot"))) return false;
            options.screenshot = v;
        } else if (arg == "--data") {
            if (!(v = value("--data"))) return false;
            options.data_folder = v;
        } else if (arg == "--state-file") {
            if (!(v = value("--state-file"))) return false;
            options.state_file = v;
        } else if (arg == "--help" || arg == "-h") {
            std::fputs(usage, stdout);
            std::exit(0);
        } else if (!arg.empty() && arg[0] != '-' && target.empty()) {
            target = arg;
        } else {
            std::fprintf(stderr, "imquiz-desktop: unknown argument %s\n%s", arg.c_str(), usage);
            return false;
        }
    }
    if (target.empty()) target = IMQUIZ_DEFAULT_QUIZZES;
    if (is_folder(target)) {
        options.catalog_folder = absolute(target);
    } else {
        FILE* file = std::fopen(target.c_str(), "rb");
        if (!file) {
            std::fprintf(stderr, "imquiz-desktop: %s: no such file or folder\n", target.c_str());
            return false;
        }
        std::fclose(file);
        options.bank_file = absolute(target);
    }
    // Debian's Noto Sans and DejaVu Sans Mono, whole: the web subsets them to save bytes.
    options.fonts = {{"fonts/imquiz-sans.ttf", IMQUIZ_FONT_DIR "/noto/NotoSans-Regular.ttf"},
                     {"fonts/imquiz-sans-bold.ttf", IMQUIZ_FONT_DIR "/noto/NotoSans-Bold.ttf"},
                     {"fonts/imquiz-sans-italic.ttf", IMQUIZ_FONT_DIR "/noto/NotoSans-Italic.ttf"},
                     {"fonts/imquiz-sans-bold-italic.ttf", IMQUIZ_FONT_DIR "/noto/NotoSans-BoldItalic.ttf"},
                     {"fonts/imquiz-mono.ttf", IMQUIZ_FONT_DIR "/dejavu/DejaVuSansMono.ttf"}};
    return true;
}

const char* clipboard_for_imgui(void*) {
    static std::string text;
    text = imquiz::platform::sdl::clipboard_text();
    return text.c_str();
}
void set_clipboard_for_imgui(void*, const char* text) { imquiz::platform::copy_text(text); }
void ime_position_for_imgui(int x, int y) { imquiz::platform::sdl::set_text_input_position(x, y); }

}  // namespace

int main(int argc, char** argv) {
    Options options;
    if (!read_arguments(argc, argv, options)) return 2;
    const std::string screenshot = options.screenshot;
    imquiz::platform::sdl::configure(std::move(options));
    imquiz::platform::init();
    if (!imquiz::platform::create_gl_surface()) return 1;

    static imquiz::program::Program program;
    imquiz::program::start(program);
    ImGuiIO& io = ImGui::GetIO();
    io.GetClipboardTextFn = clipboard_for_imgui;
    io.SetClipboardTextFn = set_clipboard_for_imgui;
    io.ImeSetInputScreenPosFn = ime_position_for_imgui;
    imquiz::platform::run_main_loop(imquiz::program::frame, &program);

    if (screenshot.empty()) return 0;
    std::string error;
    if (imquiz::platform::sdl::screenshot_written(error)) return 0;
    std::fprintf(stderr, "imquiz-desktop: no screenshot: %s\n", error.c_str());
    return 1;
}
