// One frame of ImQuiz, for every shell: the web page (main.cpp) and the desktop player
// (desktop/main.cpp) set up their platform, then hand `frame` to platform::run_main_loop.
#pragma once

#include "app/screen_model.h"
#include "app/state.h"
#include "program/imgui_backend.h"
#include "ui/views.h"

#include <string>
#include <vector>

namespace imquiz::program {

// Everything the frame function needs; lives for the whole run.
struct Program {
    app::AppState state;
    app::ScreenModel screen;     // what the screen shows, rebuilt when the state changed
    std::string screen_json;     // the same, for the page (without this frame's items)
    bool screen_stale = true;
    bool screen_published = false;
    ui::GlyphSet glyphs;         // what the atlas must hold: every character shown so far
    std::string glyphs_language; // the interface language whose words are in it
    ImGuiBackend backend;
    ui::Views views;
    ui::Fonts fonts;
    float fonts_scale = 0;       // text scale the atlas was built for
    float fonts_ratio = 0;       // device pixel ratio the atlas was built for
    bool fonts_rich = false;     // it has the Markdown faces (built once all four have come)
    std::size_t fonts_glyphs = 0;  // characters it was built with
    int frames_drawn = 0;
    std::vector<unsigned char> drawing;       // the last drawn frame's draw lists, as bytes
    std::vector<unsigned char> next_drawing;  // this frame's (kept to spare an allocation)
    bool first_question_signalled = false;
    std::string last_items_json;
    std::string last_title;
    int last_height = 0;
};

// ImGui's context, our input backend and its OpenGL ES 3 renderer, then the app started. Call once
// the platform has a GL surface (platform::create_gl_surface).
void start(Program& program);

// One frame: what arrived, the screen drawn, the learner's action applied, the page told.
// The platform's FrameFunction (user: the Program).
bool frame(void* user);

}  // namespace imquiz::program
