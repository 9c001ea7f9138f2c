#include "program/imgui_backend.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>

namespace imquiz::program {

using platform::InputEvent;
using platform::Key;

void imgui_backend_init(ImGuiBackend& backend) {
    ImGuiIO& io = ImGui::GetIO();
    io.BackendPlatformName = "imquiz";
    io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors;
    // ImGui 1.86 reads io.KeysDown[io.KeyMap[key]]: our Key values are the indices.
    const std::pair<ImGuiKey_, Key> map[] = {
        {ImGuiKey_Tab, Key::Tab},         {ImGuiKey_LeftArrow, Key::Left},  {ImGuiKey_RightArrow, Key::Right},
        {ImGuiKey_UpArrow, Key::Up},      {ImGuiKey_DownArrow, Key::Down},  {ImGuiKey_PageUp, Key::PageUp},
        {ImGuiKey_PageDown, Key::PageDown}, {ImGuiKey_Home, Key::Home},     {ImGuiKey_End, Key::End},
        {ImGuiKey_Insert, Key::Insert},   {ImGuiKey_Delete, Key::Delete},   {ImGuiKey_Backspace, Key::Backspace},
        {ImGuiKey_Space, Key::Space},     {ImGuiKey_Enter, Key::Enter},     {ImGuiKey_Escape, Key::Escape},
        {ImGuiKey_KeyPadEnter, Key::KeypadEnter}, {ImGuiKey_A, Key::A},     {ImGuiKey_C, Key::C},
        {ImGuiKey_V, Key::V},             {ImGuiKey_X, Key::X},             {ImGuiKey_Y, Key::Y},
        {ImGuiKey_Z, Key::Z},
    };
    for (const auto& [imgui_key, key] : map) io.KeyMap[imgui_key] = static_cast<int>(key);
    backend.last_frame_ms = platform::monotonic_ms();
}

namespace {

// What this frame has already seen, to decide what must wait for the next one.
struct FrameInput {
    bool button_changed = false;
    bool key_pressed = false;         // a key went down, or text was typed
    bool last_was_key_down = false;   // the text that follows belongs to that key press
    std::vector<Key> keys_changed;
};

// ImGui 1.86 reads input as "down this frame": a click or key press and its release within one
// frame (usual while the loop sleeps when idle, and with fast typists and test drivers) would
// never be seen, and "1 then Enter" in one frame would be one intent too many. So a frame takes
// at most one button change and one key press or typed text (a key's own text goes with it), and
// each key changes at most once; from the first event that breaks this, everything waits (in
// order) for the next frame.
bool must_wait(const InputEvent& event, const FrameInput& frame) {
    switch (event.kind) {
    case InputEvent::Kind::PointerMove:
    case InputEvent::Kind::PointerLeave:
    case InputEvent::Kind::PointerDown:
    case InputEvent::Kind::PointerUp: return frame.button_changed;  // a click lands where it was pressed
    case InputEvent::Kind::KeyDown:
        return frame.key_pressed ||
               std::find(frame.keys_changed.begin(), frame.keys_changed.end(), event.key) != frame.keys_changed.end();
    case InputEvent::Kind::KeyUp:
        return std::find(frame.keys_changed.begin(), frame.keys_changed.end(), event.key) != frame.keys_changed.end();
    // Typing "1" (text only: digits are not keys here) then Enter is two intents, two frames.
    case InputEvent::Kind::Text: return frame.key_pressed && !frame.last_was_key_down;
    default: return false;
    }
}

void apply(ImGuiBackend& backend, const InputEvent& event, FrameInput& frame) {
    ImGuiIO& io = ImGui::GetIO();
    switch (event.kind) {
    case InputEvent::Kind::PointerMove:
    case InputEvent::Kind::PointerDown:
    case InputEvent::Kind::PointerUp:
        io.MousePos = ImVec2(event.x, event.y);
        backend.touch_input = event.touch;
        if (event.kind != InputEvent::Kind::PointerMove && event.button >= 0 && event.button < 3) {
            io.MouseDown[event.button] = event.kind == InputEvent::Kind::PointerDown;
            frame.button_changed = true;
        }
        break;
    case InputEvent::Kind::PointerLeave: io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX); break;
    case InputEvent::Kind::Wheel:
        io.MouseWheelH += event.wheel_x;
        io.MouseWheel += event.wheel_y;
        break;
    case InputEvent::Kind::KeyDown:
    case InputEvent::Kind::KeyUp:
        io.KeysDown[static_cast<int>(event.key)] = event.kind == InputEvent::Kind::KeyDown;
        io.KeyShift = event.shift;
        io.KeyCtrl = event.ctrl;
        io.KeyAlt = event.alt;
        io.KeySuper = event.super;
        frame.keys_changed.push_back(event.key);
        if (event.kind == InputEvent::Kind::KeyDown) frame.key_pressed = true;
        break;
    case InputEvent::Kind::Text:
        io.AddInputCharactersUTF8(event.text.c_str());
        frame.key_pressed = true;
        break;
    case InputEvent::Kind::FocusIn: io.AddFocusEvent(true); break;
    case InputEvent::Kind::FocusOut: io.AddFocusEvent(false); break;
    }
}

}  // namespace

bool imgui_backend_new_frame(ImGuiBackend& backend, int css_width, int css_height, float pixel_ratio) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(css_width), static_cast<float>(css_height));
    io.DisplayFramebufferScale = ImVec2(pixel_ratio, pixel_ratio);
    double now = platform::monotonic_ms();
    // The loop sleeps while idle: the first frame after a pause must not see a huge step.
    io.DeltaTime = static_cast<float>(std::clamp((now - backend.last_frame_ms) / 1000.0, 0.001, 0.1));
    backend.last_frame_ms = now;

    std::vector<InputEvent> events;
    events.swap(backend.held_back);
    InputEvent event;
    while (platform::take_input_event(event)) events.push_back(std::move(event));
    FrameInput frame;
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (must_wait(events[i], frame)) {
            backend.held_back.assign(std::make_move_iterator(events.begin() + static_cast<std::ptrdiff_t>(i)),
                                     std::make_move_iterator(events.end()));
            break;
        }
        apply(backend, events[i], frame);
        frame.last_was_key_down = events[i].kind == InputEvent::Kind::KeyDown;
    }
    return !backend.held_back.empty();
}

void imgui_backend_end_frame(ImGuiBackend& backend) {
    ImGuiMouseCursor wanted = ImGui::GetIO().MouseDrawCursor ? ImGuiMouseCursor_None : ImGui::GetMouseCursor();
    if (wanted == backend.cursor) return;
    backend.cursor = wanted;
    using platform::Cursor;
    Cursor cursor = Cursor::Arrow;
    switch (wanted) {
    case ImGuiMouseCursor_None: cursor = Cursor::Hidden; break;
    case ImGuiMouseCursor_TextInput: cursor = Cursor::Text; break;
    case ImGuiMouseCursor_Hand: cursor = Cursor::Hand; break;
    case ImGuiMouseCursor_ResizeAll: cursor = Cursor::Move; break;
    case ImGuiMouseCursor_ResizeNS: cursor = Cursor::ResizeNS; break;
    case ImGuiMouseCursor_ResizeEW: cursor = Cursor::ResizeEW; break;
    case ImGuiMouseCursor_ResizeNESW: cursor = Cursor::ResizeNESW; break;
    case ImGuiMouseCursor_ResizeNWSE: cursor = Cursor::ResizeNWSE; break;
    case ImGuiMouseCursor_NotAllowed: cursor = Cursor::NotAllowed; break;
    default: break;
    }
    platform::set_cursor(cursor);
}

}  // namespace imquiz::program
