// ImQuiz's own widgets on top of ImGui: cards, buttons, badges, icons. They draw and report what
// the learner did; they never change the model (views turn their results into actions).
#pragma once

#include "app/screen_model.h"
#include "ui/math_pictures.h"
#include "ui/theme.h"

#include <imgui.h>
#include <imgui_internal.h>  // ImVec2 arithmetic (IMGUI_DEFINE_MATH_OPERATORS), ImRect

#include <string>
#include <vector>

namespace imquiz::ui {

// An interactive item as the test hook and the accessibility mirror see it: where it is on the
// canvas (CSS pixels) and what it does.
struct ItemRect {
    std::string id;       // stable within a screen: "choice:full-replica", "button:check"
    std::string label;
    float x, y, width, height;
    // Where the page lays a real element over the canvas (the answer field): the text it must
    // match, so the typed text looks as if the canvas drew it.
    float font_px = 0;
    float inset_px = 0;
    uint32_t text_color = 0;
    bool focused = false;  // the keyboard focus (ImGui's navigation) is on it, and shown
};

// What every view's draw function gets: the look, the language, and where to record items.
struct UiContext {
    Palette palette;
    Metrics metrics;
    Fonts fonts;
    bool reduced_motion = false;
    bool touch_input = false;              // the last pointer event came from a touch screen
    bool touch_scrolling = false;          // a touch drag is scrolling: swallow clicks
    bool draw_text_fields = false;         // no host text field over the answer frame: edit it here
    std::vector<ItemRect>* items = nullptr;
    std::string copy_label;                // a code block's Copy button, in the learner's language
    const app::MathFormulas* math = nullptr;  // the formulas the math module typeset (the screen model's)
    MathPictures* math_pictures = nullptr;    // this frame's use of their textures
    std::string picture_not_shown;         // beside the alt text of an image that cannot be shown
    const std::vector<app::PictureModel>* pictures = nullptr;  // the active bank's images
    float px(float css) const { return metrics.px(css); }
};

// Text of a given font, wrapped to the available width.
void text_wrapped(const UiContext& ui, ImFont* font, const std::string& text, uint32_t color);
// Height `text` takes when wrapped at `width` in `font`.
float text_height(ImFont* font, const std::string& text, float width);
// A font's size as drawn (its size times the text scale).
float font_size(ImFont* font);
// The width left on the current line: up to the wrap position inside a panel (panel_begin), so that
// a drawn shape stops at the panel's right padding as wrapped text does.
float room_x();

enum class ButtonKind { Primary, Secondary, Quiet };
// A rounded button with a minimum touch target of 44 CSS px. Returns true when pressed.
bool button(const UiContext& ui, const char* id, const std::string& label, ButtonKind kind,
            float width = 0.0f, bool enabled = true);

// A full-width selectable answer card, drawn from the screen model's choice as it is (marker,
// text, status, feedback, mark); `multiple`: a square check box instead of a round radio.
// Returns true when clicked / activated.
bool choice_card(const UiContext& ui, const app::ChoiceModel& card, bool multiple);

void progress_bar(const UiContext& ui, float fraction, float height);
// A small pill with text: "Correct", "Passed", "8 questions".
void badge(const UiContext& ui, const std::string& text, uint32_t foreground, uint32_t background);
void icon_check(ImDrawList* draw, ImVec2 center, float size, uint32_t color);
void icon_cross(ImDrawList* draw, ImVec2 center, float size, uint32_t color);

// A rounded panel behind whatever is drawn between begin and end (explanations, bank cards).
void panel_begin(const UiContext& ui, const char* id);
void panel_end(const UiContext& ui, uint32_t background, uint32_t border);

// Records the item just drawn (ImGui's last item), with whether the keyboard focus is on it.
void record_item(const UiContext& ui, const std::string& id, const std::string& label);
// Draws the keyboard focus ring around `rect` when the last item has the focus (ImGui's
// InvisibleButton draws none).
void focus_ring(const UiContext& ui, ImRect rect, float rounding);
// The same for a rectangle that is part of a bigger item (a picture inside an answer card).
void record_rect(const UiContext& ui, const std::string& id, const std::string& label, ImVec2 min, ImVec2 max);
// Records an item with the text metrics a page element laid over it must use.
void record_text_item(const UiContext& ui, const std::string& id, const std::string& label, float font_px,
                      float inset_px, uint32_t text_color);

// A button of the screen model: its label, style and enabled state; returns its action when pressed.
app::Action model_button(const UiContext& ui, const app::ButtonModel& model, float width = 0.0f,
                         const std::string& prefix = {});

}  // namespace imquiz::ui
