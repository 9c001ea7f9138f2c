// Dear ImGui's platform backend on platform.h: what imgui_impl_sdl did for us, on the platform's
// own input events, without SDL (a quarter of the wasm and most of the JS glue, for a canvas and
// an event queue).
#pragma once

#include "platform/platform.h"

#include <vector>

namespace imquiz::program {

struct ImGuiBackend {
    std::vector<platform::InputEvent> held_back;  // events that wait for the next frame
    bool touch_input = false;                     // the last pointer event came from a touch screen
    double last_frame_ms = 0;
    int cursor = -1;                              // the cursor last shown (ImGuiMouseCursor)
};

// Key map and backend flags; once, after ImGui::CreateContext.
void imgui_backend_init(ImGuiBackend& backend);

// Feeds the input that arrived since the last frame to ImGui, with the display size (CSS pixels)
// and the framebuffer scale; call before ImGui::NewFrame. Returns true when some input was held
// back for the next frame (the caller must ask for one).
bool imgui_backend_new_frame(ImGuiBackend& backend, int css_width, int css_height, float pixel_ratio);

// Shows the mouse cursor ImGui asked for; after ImGui::Render.
void imgui_backend_end_frame(ImGuiBackend& backend);

}  // namespace imquiz::program
