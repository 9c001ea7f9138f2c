// One frame of ImQuiz: take what arrived, draw the screen model, apply the learner's action, tell
// the page (or the desktop's state file) what is on screen.
#include "program/frame.h"

#include "app/app.h"
#include "app/page_protocol.h"
#include "app/strings.h"
#include "engine/json/writer.h"
#include "platform/platform.h"

#include <GLES2/gl2.h>  // glViewport, glClear: WebGL 2 on the web, OpenGL ES 3 on the desktop
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

namespace imquiz::program {

namespace {

void rebuild_fonts_if_needed(Program& program, float ratio) {
    float scale = program.state.preferences.text_scale;
    const app::AppState& s = program.state;
    bool rich = s.rich_fonts_arrived == static_cast<int>(s.rich_font_data.size());
    if (program.fonts_scale == scale && program.fonts_ratio == ratio && program.fonts_rich == rich &&
        program.fonts_glyphs == program.glyphs.size())
        return;
    ui::FontFiles files{&s.font_data};
    if (rich) files = {&s.font_data, &s.rich_font_data[0], &s.rich_font_data[1], &s.rich_font_data[2], &s.rich_font_data[3]};
    program.fonts = ui::build_fonts(files, program.glyphs, scale, ratio);
    program.fonts_scale = scale;
    program.fonts_ratio = ratio;
    program.fonts_rich = rich;
    program.fonts_glyphs = program.glyphs.size();
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
}

ui::Palette current_palette(const app::AppState& state) {
    bool dark = app::wants_dark(state);
    if (platform::system_prefers_more_contrast()) return ui::high_contrast_palette(dark);
    return dark ? ui::dark_palette() : ui::light_palette();
}

void rebuild_screen_if_stale(Program& program) {
    // Code drawn plain while the highlighter was on its way: coloured once it answered.
    if (app::code_colours_arrived(program.screen.code_colours_pending)) program.screen_stale = true;
    if (!program.screen_stale) return;
    program.screen = app::build_screen(program.state);
    program.screen_stale = false;
    program.screen_json = app::screen_to_page(program.state, program.screen);
    program.screen_published = false;
    // The atlas gets what this screen shows and lacks, and the interface's own words in its
    // language (so that moving between screens rarely rebuilds it); rebuilt before it is drawn.
    app::Language language;
    if (program.screen.language != program.glyphs_language && app::language_from_code(program.screen.language, language)) {
        program.glyphs_language = program.screen.language;
        for (int id = 0; id < static_cast<int>(app::Str::Count); ++id) program.glyphs.add(app::tr(language, app::Str(id)));
    }
    program.glyphs.add(program.screen_json);
}

std::string items_to_json(const std::vector<ui::ItemRect>& items) {
    std::string json = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& item = items[i];
        char rect[256];
        std::snprintf(rect, sizeof rect, "\"x\":%.1f,\"y\":%.1f,\"w\":%.1f,\"h\":%.1f", item.x, item.y, item.width,
                      item.height);
        // Ids are ours, but a formula's carries its TeX (backslashes, quotes): written as JSON.
        json += (i ? ",{\"id\":" : "{\"id\":") + JsonWriter().string(item.id).take() + "," + rect;
        if (item.focused) json += ",\"focused\":true";
        if (item.font_px > 0) {
            // The colour as CSS wants it: #rrggbb from ImGui's packed 0xAABBGGRR.
            std::snprintf(rect, sizeof rect, ",\"fontSize\":%.2f,\"inset\":%.1f,\"color\":\"#%02x%02x%02x\"",
                          item.font_px, item.inset_px, item.text_color & 0xFF, (item.text_color >> 8) & 0xFF,
                          (item.text_color >> 16) & 0xFF);
            json += rect;
        }
        json += "}";
    }
    return json + "]";
}

// What the page learns after each drawn frame: the screen for the accessibility mirror, the
// text field and tests, title and language for the document, height for an embedding iframe,
// start-up signals.
void publish(Program& program, const std::vector<ui::ItemRect>& items) {
    std::string items_json = items_to_json(items);
    if (!program.screen_published) {
        program.screen_published = true;
        program.last_items_json = items_json;
        platform::publish_state(app::with_items(program.screen_json, items_json));
    } else if (items_json != program.last_items_json) {
        // Only the rectangles moved (a scroll): the page keeps the rest of the document.
        program.last_items_json = items_json;
        platform::publish_state(items_json);
    }
    if (program.screen.title != program.last_title) {
        program.last_title = program.screen.title;
        platform::set_document_info(program.screen.language, program.screen.title);
    }
    if (program.state.embed) {
        // This frame's content, not ContentSize: ImGui measures that at the next Begin, so the
        // frame that first shows a screen would report the last screen's height (a 36 px iframe
        // around a question, when no frame followed it).
        ImGuiWindow* window = ImGui::FindWindowByName("##imquiz");
        int height = window ? static_cast<int>(std::ceil(window->DC.CursorMaxPos.y - window->DC.CursorStartPos.y +
                                                         window->WindowPadding.y * 2))
                            : 0;
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

// ImGui uses what its allocator returns unchecked: a failed malloc (the heap is at MAXIMUM_MEMORY)
// would become writes at address 0 and run on with corrupted memory. Abort instead: the page shows
// its crash notice ("ImQuiz stopped"), and the saved progress stays as it was.
void* imgui_allocate(std::size_t size, void*) {
    void* memory = std::malloc(size);
    if (!memory && size > 0) {
        std::fprintf(stderr, "ImGui could not allocate %zu bytes: out of memory\n", size);
        std::abort();
    }
    return memory;
}
void imgui_free(void* memory, void*) { std::free(memory); }

template <typename T>
void append(std::vector<unsigned char>& out, const T* data, std::size_t count) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(data);
    out.insert(out.end(), bytes, bytes + count * sizeof(T));
}

// Everything that decides the frame's pixels, as bytes: the surface's size, the background and
// ImGui's draw lists (vertices, indices, and each command's clip rectangle, texture and range).
// A texture's name stands for its pixels: the web's GL never gives a name twice (the atlas and
// every picture get a new one), so new pixels come with a new name. false: a draw callback,
// which bytes cannot tell.
bool describe_drawing(const ImDrawData& data, ImU32 background, std::vector<unsigned char>& out) {
    out.clear();
    const float header[] = {data.DisplaySize.x, data.DisplaySize.y, data.FramebufferScale.x, data.FramebufferScale.y,
                            data.DisplayPos.x, data.DisplayPos.y};
    append(out, header, std::size(header));
    append(out, &background, 1);
    for (int n = 0; n < data.CmdListsCount; ++n) {
        const ImDrawList& list = *data.CmdLists[n];
        append(out, list.VtxBuffer.Data, static_cast<std::size_t>(list.VtxBuffer.Size));
        append(out, list.IdxBuffer.Data, static_cast<std::size_t>(list.IdxBuffer.Size));
        for (const ImDrawCmd& command : list.CmdBuffer) {
            if (command.UserCallback) return false;
            const unsigned int range[] = {command.VtxOffset, command.IdxOffset, command.ElemCount};
            append(out, &command.ClipRect, 1);
            append(out, &command.TextureId, 1);
            append(out, range, std::size(range));
        }
    }
    return true;
}

}  // namespace

bool frame(void* user) {
    Program& program = *static_cast<Program*>(user);
    bool changed = app::poll(program.state);
    if (changed) program.screen_stale = true;
    // Nothing readable to draw yet, or the first screen would be a passing one: the page's
    // spinner stays until the app can show what was asked for.
    if (program.state.font_data.empty() || app::opening_quiz(program.state)) return true;

    // The canvas follows the page's size times the device pixel ratio (crisp on HiDPI screens).
    int width = 0, height = 0;
    float ratio = 1.0f;
    platform::viewport_size(width, height, ratio);
    platform::resize_surface(static_cast<int>(width * ratio), static_cast<int>(height * ratio));
    rebuild_screen_if_stale(program);
    rebuild_fonts_if_needed(program, ratio);
    if (imgui_backend_new_frame(program.backend, width, height, ratio)) platform::request_frames(2);

    ui::UiContext ui;
    ui.palette = current_palette(program.state);
    ui.metrics.text_scale = program.state.preferences.text_scale;
    ui.fonts = program.fonts;
    ui.reduced_motion = platform::system_prefers_reduced_motion();
    ui.touch_input = program.backend.touch_input;
    ui.draw_text_fields = !platform::hosts_text_fields();
    std::vector<ui::ItemRect> items;
    ui.items = &items;
    ui::apply_style(ui.palette, ui.metrics);

    ui.math = program.screen.math;
    ui::MathPictures math_pictures;
    ui.math_pictures = &math_pictures;
    auto lay_out = [&] {
        items.clear();
        math_pictures = {};
        ImGui_ImplOpenGL3_NewFrame();
        ImGui::NewFrame();
        app::Action pass = ui::draw_screen(program.views, ui, program.screen);
        ImGui::Render();
        return pass;
    };
    app::Action action = lay_out();
    // Formulas this frame shows for the first time, whose pictures the page had read ahead (web:
    // the first question's, rich.js), are in textures as soon as asked for: laid out again with
    // them, the frame shows them, not their places (they came a frame later, after the GPU had
    // drawn this one). Not after an input: the second pass would not see it.
    if (action.kind == app::Action::Kind::None &&
        app::update_math_pictures(program.state, math_pictures.drawn, math_pictures.wanted)) {
        program.screen_stale = true;
        rebuild_screen_if_stale(program);
        action = lay_out();
    }
    imgui_backend_end_frame(program.backend);

    // The same drawing as the last frame's is not drawn again where the surface keeps it: most
    // frames after an input or a change (ImGui settling, frames asked for in case) would redraw
    // the same pixels, a full-screen pass each on a phone's GPU (and in software WebGL).
    bool same = false;
    if (platform::surface_keeps_last_drawing()) {
        const bool described = describe_drawing(*ImGui::GetDrawData(), ui.palette.background, program.next_drawing);
        same = described && program.next_drawing == program.drawing;
        if (!described) program.next_drawing.clear();  // never equal to a frame's description
        program.drawing.swap(program.next_drawing);
    }
    if (!same) {
        ImGuiIO& io = ImGui::GetIO();
        glViewport(0, 0, static_cast<int>(io.DisplaySize.x * io.DisplayFramebufferScale.x),
                   static_cast<int>(io.DisplaySize.y * io.DisplayFramebufferScale.y));
        ImVec4 background = ImGui::ColorConvertU32ToFloat4(ui.palette.background);
        glClearColor(background.x, background.y, background.z, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());  // the browser presents it after this frame
    }
    ++program.frames_drawn;

    // Effects after the frame, never in the middle of drawing it.
    if (action.kind != app::Action::Kind::None) {
        if (action.kind == app::Action::Kind::Next || action.kind == app::Action::Kind::Retry ||
            action.kind == app::Action::Kind::ReviewMistakes)
            program.views.results.scroll_to_top = true;
        app::apply(program.state, action);
        changed = true;
        // The page must not read a screen the state has already left: publish the new one now,
        // with this frame's rectangles (the next frame brings the new ones).
        program.screen_stale = true;
        rebuild_screen_if_stale(program);
    }
    if (app::update_math_pictures(program.state, math_pictures.drawn, math_pictures.wanted)) {
        program.screen_stale = true;
        changed = true;
    }
    publish(program, items);
    // A changed state needs a couple more frames for ImGui's layout to settle.
    if (changed) platform::request_frames(3);
    return true;
}


void start(Program& program) {
    IMGUI_CHECKVERSION();
    ImGui::SetAllocatorFunctions(imgui_allocate, imgui_free);  // before the context: it is allocated too
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // settings persist through our own storage, not imgui.ini
    io.LogFilename = nullptr;
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    imgui_backend_init(program.backend);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    app::start(program.state);
}

}  // namespace imquiz::program
