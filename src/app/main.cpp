// ImQuiz: init, loop, shutdown. The browser's main-loop trick lives in platform::run_main_loop.
#include "app/app.h"
#include "platform/platform.h"
#include "ui/views.h"

#include <SDL.h>
#include <SDL_opengles2.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <vector>
#include <cstdio>
#include <string>

namespace {

using namespace imquiz;

// Everything the frame function needs; lives for the whole run.
struct Program {
    SDL_Window* window = nullptr;
    app::AppState state;
    ui::Views views;
    ui::Fonts fonts;
    float fonts_scale = 0;       // text scale the atlas was built for
    float fonts_ratio = 0;       // device pixel ratio the atlas was built for
    bool touch_input = false;
    std::vector<SDL_Event> deferred_key_events;
    int frames_drawn = 0;
    bool first_question_signalled = false;
    std::string last_state_json;
    std::string last_title;
    int last_height = 0;
};

// Keeps the SDL window (and so the canvas backing store) at the page's size times the device
// pixel ratio; the browser resizes the page, SDL does not notice by itself.
void follow_viewport(Program& program, float& ratio) {
    int width = 0, height = 0;
    platform::viewport_size(width, height, ratio);
    int current_width = 0, current_height = 0;
    SDL_GetWindowSize(program.window, &current_width, &current_height);
    if (width != current_width || height != current_height) SDL_SetWindowSize(program.window, width, height);
}

// ImGui 1.86 reads keys as "down this frame", so a key pressed and released between two frames
// (usual when the loop sleeps while idle, and for fast typists and test drivers) would never be
// seen, and "1 then Enter" in one frame would be one intent too many. So each frame takes at most
// one key press, and each key changes state at most once; the rest waits for the next frame.
void process_events(Program& program) {
    std::vector<SDL_Event> events;
    events.swap(program.deferred_key_events);
    SDL_Event event;
    while (SDL_PollEvent(&event)) events.push_back(event);
    std::vector<SDL_Scancode> changed_now;
    bool pressed_a_key = false;
    auto seen = [](const std::vector<SDL_Scancode>& keys, SDL_Scancode key) {
        return std::find(keys.begin(), keys.end(), key) != keys.end();
    };
    std::vector<SDL_Scancode> held_back;
    for (SDL_Event& e : events) {
        if (e.type == SDL_MOUSEBUTTONDOWN || e.type == SDL_MOUSEMOTION)
            program.touch_input = (e.type == SDL_MOUSEBUTTONDOWN ? e.button.which : e.motion.which) == SDL_TOUCH_MOUSEID;
        if (e.type == SDL_KEYDOWN || e.type == SDL_KEYUP) {
            SDL_Scancode key = e.key.keysym.scancode;
            bool hold = seen(changed_now, key) || seen(held_back, key) || (e.type == SDL_KEYDOWN && pressed_a_key);
            if (hold) {
                held_back.push_back(key);
                program.deferred_key_events.push_back(e);
                continue;
            }
            changed_now.push_back(key);
            if (e.type == SDL_KEYDOWN) pressed_a_key = true;
        }
        ImGui_ImplSDL2_ProcessEvent(&e);
    }
    if (!program.deferred_key_events.empty()) platform::request_frames(2);
}

void rebuild_fonts_if_needed(Program& program, float ratio) {
    float scale = program.state.preferences.text_scale;
    if (program.fonts_scale == scale && program.fonts_ratio == ratio) return;
    program.fonts = ui::build_fonts(program.state.font_data, scale, ratio);
    program.fonts_scale = scale;
    program.fonts_ratio = ratio;
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
}

ui::Palette current_palette(const app::AppState& state) {
    bool dark = app::wants_dark(state);
    if (platform::system_prefers_more_contrast()) return ui::high_contrast_palette(dark);
    return dark ? ui::dark_palette() : ui::light_palette();
}

// What the page learns after each drawn frame: state for the accessibility mirror and tests,
// title and language for the document, height for an embedding iframe, start-up signals.
void publish(Program& program, const std::vector<ui::ItemRect>& items) {
    std::string items_json = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& item = items[i];
        char rect[128];
        std::snprintf(rect, sizeof rect, "\"x\":%.1f,\"y\":%.1f,\"w\":%.1f,\"h\":%.1f", item.x, item.y, item.width,
                      item.height);
        items_json += (i ? ",{\"id\":\"" : "{\"id\":\"") + item.id + "\"," + rect + "}";
    }
    items_json += "]";
    std::string json = app::describe(program.state, items_json);
    if (json != program.last_state_json) {
        program.last_state_json = json;
        platform::publish_state(json);
    }
    const Bank* bank = program.state.active();
    std::string title = bank ? bank->text(bank->title, program.state.language_code()) + " – ImQuiz" : "ImQuiz";
    if (title != program.last_title) {
        program.last_title = title;
        platform::set_document_info(program.state.language_code(), title);
    }
    if (program.state.embed) {
        ImGuiWindow* window = ImGui::FindWindowByName("##imquiz");
        int height = window ? static_cast<int>(std::ceil(window->ContentSize.y + window->WindowPadding.y * 2)) : 0;
        if (height > 0 && height != program.last_height) {
            program.last_height = height;
            platform::report_content_height(height);
        }
    }
    if (program.frames_drawn == 1) platform::signal("first-frame");
    if (!program.first_question_signalled && program.state.screen == app::Screen::Question) {
        program.first_question_signalled = true;
        platform::signal("first-question");
    }
}

bool frame(void* user) {
    Program& program = *static_cast<Program*>(user);
    process_events(program);
    bool changed = app::poll(program.state);
    if (program.state.font_data.empty()) return true;  // nothing readable to draw yet

    float ratio = 1.0f;
    follow_viewport(program, ratio);
    rebuild_fonts_if_needed(program, ratio);

    ui::UiContext ui;
    ui.palette = current_palette(program.state);
    ui.metrics.text_scale = program.state.preferences.text_scale;
    ui.fonts = program.fonts;
    ui.language = program.state.preferences.language;
    ui.reduced_motion = platform::system_prefers_reduced_motion();
    ui.touch_input = program.touch_input;
    std::vector<ui::ItemRect> items;
    ui.items = &items;
    ui::apply_style(ui.palette, ui.metrics);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
    app::Action action = ui::draw_screen(program.views, ui, program.state);
    ImGui::Render();

    ImGuiIO& io = ImGui::GetIO();
    glViewport(0, 0, static_cast<int>(io.DisplaySize.x * io.DisplayFramebufferScale.x),
               static_cast<int>(io.DisplaySize.y * io.DisplayFramebufferScale.y));
    ImVec4 background = ImGui::ColorConvertU32ToFloat4(ui.palette.background);
    glClearColor(background.x, background.y, background.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    SDL_GL_SwapWindow(program.window);
    ++program.frames_drawn;

    // Effects after the frame, never in the middle of drawing it.
    if (action.kind != app::Action::Kind::None) {
        if (action.kind == app::Action::Kind::Next || action.kind == app::Action::Kind::Retry ||
            action.kind == app::Action::Kind::ReviewMistakes)
            program.views.results.scroll_to_top = true;
        app::apply(program.state, action);
        changed = true;
    }
    publish(program, items);
    // A changed state needs a couple more frames for ImGui's layout to settle.
    if (changed) platform::request_frames(3);
    return true;
}

}  // namespace

int main(int, char**) {
    imquiz::platform::init();

    // Keys go to the canvas only, so the accessibility mirror and the host page keep theirs.
    SDL_SetHint(SDL_HINT_EMSCRIPTEN_KEYBOARD_ELEMENT, "#canvas");
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
        std::printf("SDL_Init failed: %s\n", SDL_GetError());
        return 1;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);

    static Program program;  // outlives main(): the browser keeps calling frame() after it returns
    int width = 0, height = 0;
    float ratio = 1.0f;
    imquiz::platform::viewport_size(width, height, ratio);
    program.window = SDL_CreateWindow("ImQuiz", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, width, height,
                                      SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    SDL_GLContext gl = SDL_GL_CreateContext(program.window);
    if (!program.window || !gl) {
        std::printf("WebGL 2 context failed: %s\n", SDL_GetError());
        return 1;
    }
    SDL_GL_MakeCurrent(program.window, gl);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // settings persist through our own storage, not imgui.ini
    io.LogFilename = nullptr;
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    ImGui_ImplSDL2_InitForOpenGL(program.window, gl);
    ImGui_ImplOpenGL3_Init("#version 300 es");

    imquiz::app::start(program.state);
    imquiz::platform::run_main_loop(frame, &program);

    // Reached on desktop only; the browser never returns from the loop.
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    SDL_GL_DeleteContext(gl);
    SDL_DestroyWindow(program.window);
    SDL_Quit();
    return 0;
}
