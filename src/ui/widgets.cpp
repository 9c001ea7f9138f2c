#include "ui/widgets.h"

#include "ui/rich_text.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>

namespace imquiz::ui {

float font_size(ImFont* font) { return font->FontSize * ImGui::GetIO().FontGlobalScale; }

namespace {

// The last item has the keyboard focus, and it is shown (not after a mouse click).
bool item_has_keyboard_focus() {
    ImGuiContext& g = *GImGui;
    return g.NavId == ImGui::GetItemID() && !g.NavDisableHighlight && g.NavDisableMouseHover;
}
}  // namespace

// ImGui's InvisibleButton draws no focus ring, and keyboard users need one.
void focus_ring(const UiContext& ui, ImRect rect, float rounding) {
    if (!item_has_keyboard_focus()) return;
    float pad = ui.px(3);
    ImGui::GetWindowDrawList()->AddRect(rect.Min - ImVec2(pad, pad), rect.Max + ImVec2(pad, pad),
                                        ui.palette.accent, rounding + pad, 0, ui.px(2.5f));
}

void record_item(const UiContext& ui, const std::string& id, const std::string& label) {
    const std::size_t before = ui.items ? ui.items->size() : 0;
    record_rect(ui, id, label, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    if (ui.items && ui.items->size() > before) ui.items->back().focused = item_has_keyboard_focus();
}

void record_rect(const UiContext& ui, const std::string& id, const std::string& label, ImVec2 min, ImVec2 max) {
    if (!ui.items) return;
    // Only what is on screen: a click test must not aim at a card scrolled out of view.
    ImRect clip = ImGui::GetCurrentWindow()->ClipRect;
    if (max.y < clip.Min.y || min.y > clip.Max.y) return;
    ui.items->push_back({id, label, min.x, min.y, max.x - min.x, max.y - min.y});
}

void record_text_item(const UiContext& ui, const std::string& id, const std::string& label, float font_px,
                      float inset_px, uint32_t text_color) {
    std::size_t before = ui.items ? ui.items->size() : 0;
    record_item(ui, id, label);
    if (!ui.items || ui.items->size() == before) return;
    ItemRect& item = ui.items->back();
    item.font_px = font_px;
    item.inset_px = inset_px;
    item.text_color = text_color;
}

app::Action model_button(const UiContext& ui, const app::ButtonModel& model, float width, const std::string& prefix) {
    ButtonKind kind = model.style == app::ButtonModel::Style::Primary  ? ButtonKind::Primary
                      : model.style == app::ButtonModel::Style::Quiet ? ButtonKind::Quiet
                                                                       : ButtonKind::Secondary;
    if (button(ui, model.id.c_str(), prefix + model.label, kind, width, model.enabled)) return model.action;
    return {};
}

float text_height(ImFont* font, const std::string& text, float width) {
    return font->CalcTextSizeA(font_size(font), FLT_MAX, width, text.c_str(), text.c_str() + text.size()).y;
}

void text_wrapped(const UiContext& ui, ImFont* font, const std::string& text, uint32_t color) {
    ImGui::PushFont(font);
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    // Wrap at the window edge unless an enclosing panel already set a narrower wrap position.
    bool own_wrap = ImGui::GetCurrentWindow()->DC.TextWrapPos < 0.0f;
    if (own_wrap) ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
    if (own_wrap) ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

bool button(const UiContext& ui, const char* id, const std::string& label, ButtonKind kind, float width,
            bool enabled) {
    ImFont* font = ui.fonts.body;
    float size = font_size(font);
    ImVec2 text = font->CalcTextSizeA(size, FLT_MAX, 0.0f, label.c_str());
    float height = std::max(ui.px(46), text.y + ui.px(20));
    // Quiet buttons (links like "‹ Back") line their text up with the content edge; their hover
    // background reaches a little into the margin.
    float inset = kind == ButtonKind::Quiet ? ui.px(8) : 0.0f;
    if (width <= 0.0f) width = text.x + (kind == ButtonKind::Quiet ? inset * 2 : ui.px(40));
    if (inset > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() - inset);
    ImVec2 pos = ImGui::GetCursorScreenPos();
    ImGui::PushID(id);
    bool pressed = ImGui::InvisibleButton("##button", ImVec2(width, height)) && enabled && !ui.touch_scrolling;
    bool hovered = ImGui::IsItemHovered() && enabled;
    bool held = ImGui::IsItemActive() && enabled;
    ImRect rect(pos, pos + ImVec2(width, height));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    float rounding = ui.px(10);
    uint32_t fill = 0, border = 0, color = ui.palette.text;
    switch (kind) {
    case ButtonKind::Primary:
        fill = hovered || held ? ui.palette.accent_hover : ui.palette.accent;
        color = ui.palette.on_accent;
        break;
    case ButtonKind::Secondary:
        fill = hovered || held ? ui.palette.surface_hover : ui.palette.surface;
        border = ui.palette.border;
        break;
    case ButtonKind::Quiet:
        fill = hovered || held ? ui.palette.surface_hover : 0;
        color = ui.palette.accent;
        if (ui.palette.dark) color = ui.palette.accent_hover;
        break;
    }
    if (!enabled) {
        fill = ui.palette.surface_hover;
        border = ui.palette.border;
        color = ui.palette.text_muted;
    }
    if (fill) draw->AddRectFilled(rect.Min, rect.Max, fill, rounding);
    if (border) draw->AddRect(rect.Min, rect.Max, border, rounding, 0, ui.px(1));
    draw->AddText(font, size, ImVec2(rect.Min.x + (width - text.x) * 0.5f, rect.Min.y + (height - text.y) * 0.5f),
                  color, label.c_str());
    focus_ring(ui, rect, rounding);
    record_item(ui, std::string("button:") + id, label);
    ImGui::PopID();
    return pressed;
}

void icon_check(ImDrawList* draw, ImVec2 c, float s, uint32_t color) {
    ImVec2 points[3] = {ImVec2(c.x - s * 0.32f, c.y + s * 0.02f), ImVec2(c.x - s * 0.08f, c.y + s * 0.26f),
                        ImVec2(c.x + s * 0.34f, c.y - s * 0.24f)};
    draw->AddPolyline(points, 3, color, 0, s * 0.14f);
}

void icon_cross(ImDrawList* draw, ImVec2 c, float s, uint32_t color) {
    float r = s * 0.24f;
    draw->AddLine(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), color, s * 0.14f);
    draw->AddLine(ImVec2(c.x - r, c.y + r), ImVec2(c.x + r, c.y - r), color, s * 0.14f);
}

bool choice_card(const UiContext& ui, const app::ChoiceModel& card, bool multiple) {
    ImFont* font = ui.fonts.body;
    ImFont* small = ui.fonts.small;
    float width = ImGui::GetContentRegionAvail().x;
    float pad = ui.px(16);
    float marker_size = ui.px(30);
    float text_x = pad + marker_size + ui.px(14);
    float text_width = std::max(ui.px(40), width - text_x - pad);
    float text_h = card.text_rich ? rich_text_height(ui, *card.text_rich, TextSize::Body, text_width)
                                  : text_height(font, card.text, text_width);
    float status_h = card.status.empty() ? 0.0f : font_size(small) + ui.px(6);
    float feedback_h = card.feedback.empty() ? 0.0f
                       : card.feedback_rich ? rich_text_height(ui, *card.feedback_rich, TextSize::Small, text_width) + ui.px(8)
                                            : text_height(small, card.feedback, text_width) + ui.px(8);
    float height = std::max(ui.px(56), pad * 2 + status_h + text_h + feedback_h);

    ImVec2 pos = ImGui::GetCursorScreenPos();
    ImGui::PushID(card.id.c_str());
    bool locked = card.mark != app::ChoiceMark::Normal && card.mark != app::ChoiceMark::Selected;
    bool pressed = ImGui::InvisibleButton("##card", ImVec2(width, height)) && !locked && !ui.touch_scrolling;
    bool hovered = ImGui::IsItemHovered() && !locked;
    ImRect rect(pos, pos + ImVec2(width, height));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    float rounding = ui.px(12);

    uint32_t fill = hovered ? ui.palette.surface_hover : ui.palette.surface;
    uint32_t border = ui.palette.border;
    float border_width = ui.px(1.5f);
    uint32_t status_color = ui.palette.text_muted;
    switch (card.mark) {
    case app::ChoiceMark::Selected:
        fill = ui.palette.accent_soft;
        border = ui.palette.accent;
        border_width = ui.px(2.5f);
        break;
    case app::ChoiceMark::Correct:
    case app::ChoiceMark::CorrectMissed:
        fill = ui.palette.correct_soft;
        border = ui.palette.correct;
        border_width = ui.px(2.5f);
        status_color = ui.palette.correct;
        break;
    case app::ChoiceMark::Wrong:
        fill = ui.palette.wrong_soft;
        border = ui.palette.wrong;
        border_width = ui.px(2.5f);
        status_color = ui.palette.wrong;
        break;
    default: break;
    }
    draw->AddRectFilled(rect.Min, rect.Max, fill, rounding);
    draw->AddRect(rect.Min, rect.Max, border, rounding, 0, border_width);

    // The marker: a numbered radio/check box; after checking, a tick or a cross (not colour alone).
    ImVec2 marker_center(rect.Min.x + pad + marker_size * 0.5f, rect.Min.y + pad + marker_size * 0.5f);
    float marker_rounding = multiple ? ui.px(7) : marker_size * 0.5f;
    ImVec2 half(marker_size * 0.5f, marker_size * 0.5f);
    if (card.mark == app::ChoiceMark::Correct || card.mark == app::ChoiceMark::CorrectMissed) {
        draw->AddRectFilled(marker_center - half, marker_center + half, ui.palette.correct, marker_rounding);
        icon_check(draw, marker_center, marker_size, ui.palette.dark ? ui.palette.background : rgb(0xFFFFFF));
    } else if (card.mark == app::ChoiceMark::Wrong) {
        draw->AddRectFilled(marker_center - half, marker_center + half, ui.palette.wrong, marker_rounding);
        icon_cross(draw, marker_center, marker_size, ui.palette.dark ? ui.palette.background : rgb(0xFFFFFF));
    } else if (card.mark == app::ChoiceMark::Selected) {
        draw->AddRectFilled(marker_center - half, marker_center + half, ui.palette.accent, marker_rounding);
        if (multiple) {
            icon_check(draw, marker_center, marker_size, ui.palette.on_accent);
        } else {
            ImVec2 text = small->CalcTextSizeA(font_size(small), FLT_MAX, 0, card.marker.c_str());
            draw->AddText(small, font_size(small), marker_center - text * 0.5f, ui.palette.on_accent, card.marker.c_str());
        }
    } else {
        draw->AddRect(marker_center - half, marker_center + half, ui.palette.text_muted, marker_rounding, 0, ui.px(1.5f));
        ImVec2 text = small->CalcTextSizeA(font_size(small), FLT_MAX, 0, card.marker.c_str());
        draw->AddText(small, font_size(small), marker_center - text * 0.5f, ui.palette.text_muted, card.marker.c_str());
    }

    float y = rect.Min.y + pad;
    if (!card.status.empty()) {
        draw->AddText(small, font_size(small), ImVec2(rect.Min.x + text_x, y), status_color, card.status.c_str());
        y += status_h;
    }
    if (card.text_rich)
        rich_text_at(ui, "text", *card.text_rich, TextSize::Body, ui.palette.text, ImVec2(rect.Min.x + text_x, y), text_width);
    else
        draw->AddText(font, font_size(font), ImVec2(rect.Min.x + text_x, y), ui.palette.text, card.text.c_str(), nullptr,
                      text_width);
    y += text_h;
    if (!card.feedback.empty()) {
        y += ui.px(8);
        if (card.feedback_rich)
            rich_text_at(ui, "feedback", *card.feedback_rich, TextSize::Small, ui.palette.text,
                         ImVec2(rect.Min.x + text_x, y), text_width);
        else
            draw->AddText(small, font_size(small), ImVec2(rect.Min.x + text_x, y), ui.palette.text,
                          card.feedback.c_str(), nullptr, text_width);
    }
    focus_ring(ui, rect, rounding);
    record_item(ui, std::string("choice:") + card.id, card.text);
    ImGui::PopID();
    return pressed;
}

void progress_bar(const UiContext& ui, float fraction, float height) {
    float width = ImGui::GetContentRegionAvail().x;
    ImVec2 pos = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(pos, pos + ImVec2(width, height), ui.palette.border, height * 0.5f);
    fraction = std::clamp(fraction, 0.0f, 1.0f);
    if (fraction > 0.0f)
        draw->AddRectFilled(pos, pos + ImVec2(std::max(height, width * fraction), height), ui.palette.accent, height * 0.5f);
    ImGui::Dummy(ImVec2(width, height));
}

void badge(const UiContext& ui, const std::string& text, uint32_t foreground, uint32_t background) {
    ImFont* font = ui.fonts.small;
    float size = font_size(font);
    ImVec2 pad(ui.px(10), ui.px(4));
    ImVec2 pos = ImGui::GetCursorScreenPos();
    // Wider than the room (a long standing on a phone): it wraps inside, as a rounded box.
    const float room = room_x();
    const float wrap = std::max(room - pad.x * 2, size * 4);
    ImVec2 extent = font->CalcTextSizeA(size, FLT_MAX, wrap, text.c_str());
    const float one_line = size + pad.y * 2;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(pos, pos + extent + pad * 2, background, one_line * 0.5f);
    draw->AddText(font, size, pos + pad, foreground, text.c_str(), nullptr, wrap);
    ImGui::Dummy(extent + pad * 2);
}

float room_x() {
    float room = ImGui::GetContentRegionAvail().x;
    const float wrap_pos = ImGui::GetCurrentWindow()->DC.TextWrapPos;
    if (wrap_pos > 0.0f) room = std::min(room, wrap_pos - ImGui::GetCursorPosX());
    return room;
}

void panel_begin(const UiContext& ui, const char* id) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->ChannelsSplit(2);
    draw->ChannelsSetCurrent(1);
    ImGui::PushID(id);
    ImGui::BeginGroup();
    float pad = ui.px(18);
    ImGui::Dummy(ImVec2(0, pad - ImGui::GetStyle().ItemSpacing.y));
    ImGui::Indent(pad);
    // Wrapped text inside the panel stops short of its right padding.
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x - pad);
}

void panel_end(const UiContext& ui, uint32_t background, uint32_t border) {
    float pad = ui.px(18);
    ImGui::PopTextWrapPos();
    ImGui::Unindent(pad);
    ImGui::Dummy(ImVec2(0, pad - ImGui::GetStyle().ItemSpacing.y));
    ImGui::EndGroup();
    ImGui::PopID();
    ImVec2 min = ImGui::GetItemRectMin();
    ImVec2 max(min.x + ImGui::GetContentRegionAvail().x, ImGui::GetItemRectMax().y);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->ChannelsSetCurrent(0);
    draw->AddRectFilled(min, max, background, ui.px(12));
    if (border) draw->AddRect(min, max, border, ui.px(12), 0, ui.px(1.5f));
    draw->ChannelsMerge();
}

}  // namespace imquiz::ui
