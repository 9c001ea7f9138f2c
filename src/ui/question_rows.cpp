// Matching, ordering and cloze questions on the canvas: a card per item (QuestionModel::rows). No
// drag is needed anywhere: a matching item's answer (and a cloze blank's choice) is picked from a
// list that opens under it (click or tap, or Enter / Space on it, arrows in the list); an ordering
// item moves with its Move up / Move down buttons (Tab to them, Enter), or by tap-tap: tap an item
// to pick it up, tap the item whose place it should take; a typed cloze blank is an answer frame.
#include "ui/question_rows.h"

#include "ui/answer_field.h"

#include "ui/rich_text.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>

namespace imquiz::ui {

namespace {

using app::Action;
using app::RowModel;

// The row's border and fill: checked right / wrong, picked up (tap-tap), or plain.
void row_colours(const UiContext& ui, const RowModel& row, bool picked, uint32_t& fill, uint32_t& border, float& width) {
    fill = ui.palette.surface;
    border = ui.palette.border;
    width = ui.px(1.5f);
    if (row.correct) {
        fill = *row.correct ? ui.palette.correct_soft : ui.palette.wrong_soft;
        border = *row.correct ? ui.palette.correct : ui.palette.wrong;
        width = ui.px(2.5f);
    } else if (picked) {
        fill = ui.palette.accent_soft;
        border = ui.palette.accent;
        width = ui.px(2.5f);
    }
}

// Once checked: a tick or a cross before the status words (colour is never the only cue).
void status_line(const UiContext& ui, const RowModel& row) {
    if (!row.correct) return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImFont* small = ui.fonts.small;
    const float icon = ui.px(16);
    ImVec2 pos = ImGui::GetCursorScreenPos();
    uint32_t colour = *row.correct ? ui.palette.correct : ui.palette.wrong;
    ImVec2 centre(pos.x + icon * 0.5f, pos.y + font_size(small) * 0.5f + ui.px(1));
    if (*row.correct) icon_check(draw, centre, icon, colour);
    else icon_cross(draw, centre, icon, colour);
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + icon + ui.px(6));
    text_wrapped(ui, small, row.status, colour);
}

void item_text(const UiContext& ui, const RowModel& row) {
    if (row.text_rich) rich_text(ui, ("row:" + row.id).c_str(), *row.text_rich, TextSize::Body, ui.palette.text);
    else text_wrapped(ui, ui.fonts.body, row.text, ui.palette.text);
}

// The answer picked for a matching item, as a select: its text and a chevron; the list of answers
// opens under it.
Action answer_select(QuestionView& view, const UiContext& ui, const RowModel& row, bool checked, float width) {
    Action action;
    ImFont* font = ui.fonts.body;
    const float pad = ui.px(12), chevron = ui.px(12);
    const float text_width = std::max(ui.px(40), width - pad * 3 - chevron);
    const float height = std::max(ui.px(46), text_height(font, row.answer_text, text_width) + ui.px(20));
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const std::string popup = "##answers:" + row.id;
    bool pressed = ImGui::InvisibleButton("##select", ImVec2(width, height)) && !checked && !ui.touch_scrolling;
    const bool hovered = ImGui::IsItemHovered() && !checked;
    record_item(ui, "select:" + row.id, row.text + ": " + row.answer_text);
    focus_ring(ui, ImRect(pos, pos + ImVec2(width, height)), ui.px(10));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const bool open = ImGui::IsPopupOpen(popup.c_str());
    draw->AddRectFilled(pos, pos + ImVec2(width, height), hovered || open ? ui.palette.surface_hover : ui.palette.background, ui.px(10));
    draw->AddRect(pos, pos + ImVec2(width, height), open ? ui.palette.accent : ui.palette.border, ui.px(10), 0,
                  ui.px(open ? 2.0f : 1.5f));
    const uint32_t colour = row.answer_id.empty() ? ui.palette.text_muted : ui.palette.text;
    const float answer_height = text_height(font, row.answer_text, text_width);
    draw->AddText(font, font_size(font), ImVec2(pos.x + pad, pos.y + (height - answer_height) * 0.5f), colour,
                  row.answer_text.c_str(), nullptr, text_width);
    if (!checked) {
        // A chevron pointing down (Noto Sans has no arrows): two strokes.
        const ImVec2 c(pos.x + width - pad - chevron * 0.5f, pos.y + height * 0.5f);
        const float h = chevron * 0.3f;
        draw->AddLine(ImVec2(c.x - chevron * 0.5f, c.y - h), ImVec2(c.x, c.y + h), ui.palette.text_muted, ui.px(2));
        draw->AddLine(ImVec2(c.x, c.y + h), ImVec2(c.x + chevron * 0.5f, c.y - h), ui.palette.text_muted, ui.px(2));
    }
    if (pressed) ImGui::OpenPopup(popup.c_str());
    // Under the select, or above it when the list would not fit below and fits better above.
    float list_height = ImGui::GetStyle().WindowPadding.y * 2;
    for (const app::RowOptionModel& option : row.options)
        list_height += std::max(ui.px(44), text_height(font, option.text, width - pad * 2) + ui.px(16)) + ImGui::GetStyle().ItemSpacing.y;
    const float screen = ImGui::GetIO().DisplaySize.y;
    list_height = std::min(list_height, screen * 0.6f);
    const float below = screen - (pos.y + height + ui.px(4)), above = pos.y - ui.px(4);
    const bool up = below < list_height && above > below;
    ImGui::SetNextWindowPos(ImVec2(pos.x, up ? pos.y - ui.px(4) : pos.y + height + ui.px(4)), 0, ImVec2(0, up ? 1.0f : 0.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, screen * 0.6f));
    ImGui::PushStyleColor(ImGuiCol_PopupBg, ui.palette.surface);
    ImGui::PushStyleColor(ImGuiCol_Border, ui.palette.accent);
    ImGui::PushStyleVar(ImGuiStyleVar_PopupRounding, ui.px(10));
    ImGui::PushStyleVar(ImGuiStyleVar_PopupBorderSize, ui.px(1.5f));
    if (ImGui::BeginPopup(popup.c_str())) {
        view.popup_open = true;
        const float option_width = ImGui::GetContentRegionAvail().x;
        for (const app::RowOptionModel& option : row.options) {
            ImGui::PushID(option.id.c_str());
            const float option_height = std::max(ui.px(44), text_height(font, option.text, option_width - pad * 2) + ui.px(16));
            const ImVec2 at = ImGui::GetCursorScreenPos();
            if (ImGui::InvisibleButton("##option", ImVec2(option_width, option_height)) && !ui.touch_scrolling) {
                action = option.action;
                ImGui::CloseCurrentPopup();
            }
            const bool over = ImGui::IsItemHovered() || ImGui::IsItemFocused();
            record_item(ui, "option:" + row.id + ":" + option.id, option.text);
            focus_ring(ui, ImRect(at, at + ImVec2(option_width, option_height)), ui.px(8));
            ImDrawList* list = ImGui::GetWindowDrawList();
            if (over || option.selected)
                list->AddRectFilled(at, at + ImVec2(option_width, option_height),
                                    option.selected ? ui.palette.accent_soft : ui.palette.surface_hover, ui.px(8));
            list->AddText(font, font_size(font), ImVec2(at.x + pad, at.y + ui.px(8)),
                          option.id.empty() ? ui.palette.text_muted : ui.palette.text, option.text.c_str(), nullptr,
                          option_width - pad * 2);
            ImGui::PopID();
        }
        ImGui::EndPopup();
    }
    ImGui::PopStyleVar(2);
    ImGui::PopStyleColor(2);
    return action;
}

// A whole row as a card: content drawn first on the front channel, its background sized after.
template <typename Content>
void row_card(const UiContext& ui, const RowModel& row, bool picked, Content content) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->ChannelsSplit(2);
    draw->ChannelsSetCurrent(1);
    const float pad = ui.px(14);
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    ImGui::BeginGroup();
    ImGui::Dummy(ImVec2(0, pad - ImGui::GetStyle().ItemSpacing.y));
    ImGui::Indent(pad);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - pad * 2);
    ImGui::PushItemWidth(width - pad * 2);
    content(width - pad * 2);
    ImGui::PopItemWidth();
    ImGui::PopTextWrapPos();
    ImGui::Unindent(pad);
    ImGui::Dummy(ImVec2(0, pad - ImGui::GetStyle().ItemSpacing.y));
    ImGui::EndGroup();
    const ImVec2 end(start.x + width, ImGui::GetItemRectMax().y);
    draw->ChannelsSetCurrent(0);
    uint32_t fill = 0, border = 0;
    float border_width = 0;
    row_colours(ui, row, picked, fill, border, border_width);
    draw->AddRectFilled(start, end, fill, ui.px(12));
    draw->AddRect(start, end, border, ui.px(12), 0, border_width);
    draw->ChannelsMerge();
}

Action matching_rows(QuestionView& view, const UiContext& ui, const app::QuestionModel& q) {
    Action action;
    for (const RowModel& row : q.rows) {
        ImGui::PushID(row.id.c_str());
        row_card(ui, row, false, [&](float width) {
            item_text(ui, row);
            ImGui::Dummy(ImVec2(0, ui.px(2)));
            Action picked = answer_select(view, ui, row, q.checked, width);
            if (picked.kind != Action::Kind::None) action = picked;
            status_line(ui, row);
            if (!row.feedback.empty()) text_wrapped(ui, ui.fonts.small, row.feedback, ui.palette.text_muted);
        });
        record_item(ui, "row:" + row.id, row.label);
        ImGui::PopID();
    }
    return action;
}

// Cloze: per blank, its number, then its list of choices or its answer frame.
Action cloze_rows(QuestionView& view, const UiContext& ui, const app::QuestionModel& q) {
    Action action;
    bool first_field = true;
    for (const RowModel& row : q.rows) {
        ImGui::PushID(row.id.c_str());
        row_card(ui, row, false, [&](float width) {
            text_wrapped(ui, ui.fonts.small, row.text, ui.palette.text_muted);
            ImGui::Dummy(ImVec2(0, ui.px(2)));
            if (row.field.present) {
                AnswerFrameStyle style;
                style.border = row.correct ? (*row.correct ? ui.palette.correct : ui.palette.wrong) : ui.palette.accent;
                style.checked = q.checked;
                style.width = width;
                // The first blank to type in takes the keyboard on a new question (the desktop).
                style.take_focus = view.focus_answer && first_field;
                first_field = false;
                if (auto typed = answer_frame(ui, row.field, "input:blank:" + row.id, style)) {
                    action = Action::of(Action::Kind::FillBlank);
                    action.choice_id = row.id;
                    action.text = std::move(*typed);
                }
            } else {
                Action picked = answer_select(view, ui, row, q.checked, width);
                if (picked.kind != Action::Kind::None) action = picked;
            }
            status_line(ui, row);
            if (!row.feedback.empty()) text_wrapped(ui, ui.fonts.small, row.feedback, ui.palette.text_muted);
        });
        record_item(ui, "row:" + row.id, row.label);
        ImGui::PopID();
    }
    view.focus_answer = false;
    return action;
}

Action ordering_rows(QuestionView& view, const UiContext& ui, const app::QuestionModel& q) {
    Action action;
    // A picked item that is no longer there (the question changed): nothing is picked.
    if (std::none_of(q.rows.begin(), q.rows.end(), [&](const RowModel& r) { return r.id == view.picked_item; }) || q.checked)
        view.picked_item.clear();
    for (const RowModel& row : q.rows) {
        ImGui::PushID(row.id.c_str());
        const bool picked = view.picked_item == row.id;
        row_card(ui, row, picked, [&](float width) {
            // The place and the text: the tap-tap target.
            const ImVec2 at = ImGui::GetCursorScreenPos();
            ImGui::BeginGroup();
            text_wrapped(ui, ui.fonts.small, row.place_label, picked ? ui.palette.accent : ui.palette.text_muted);
            item_text(ui, row);
            ImGui::EndGroup();
            const ImVec2 size(width, ImGui::GetItemRectMax().y - at.y);
            ImGui::SetCursorScreenPos(at);
            if (ImGui::InvisibleButton("##pick", size) && !q.checked && !ui.touch_scrolling) {
                if (view.picked_item.empty()) {
                    view.picked_item = row.id;
                } else if (view.picked_item == row.id) {
                    view.picked_item.clear();
                } else {
                    action = Action::of(Action::Kind::MoveItem);
                    action.choice_id = view.picked_item;
                    action.number = static_cast<float>(row.place - 1);
                    view.picked_item.clear();
                }
            }
            record_item(ui, "pick:" + row.id, row.label);
            focus_ring(ui, ImRect(at, at + size), ui.px(8));
            if (row.up || row.down) {
                const float gap = ui.px(8);
                const float half = (width - gap) * 0.5f;
                if (row.up) {
                    Action up = model_button(ui, *row.up, half);
                    if (up.kind != Action::Kind::None) action = up;
                } else {
                    ImGui::Dummy(ImVec2(half, ui.px(46)));
                }
                ImGui::SameLine(0, gap);
                if (row.down) {
                    Action down = model_button(ui, *row.down, half);
                    if (down.kind != Action::Kind::None) action = down;
                } else {
                    ImGui::Dummy(ImVec2(half, ui.px(46)));
                }
            }
            status_line(ui, row);
        });
        record_item(ui, "row:" + row.id, row.label);
        ImGui::PopID();
    }
    return action;
}

}  // namespace

Action question_rows(QuestionView& view, const UiContext& ui, const app::QuestionModel& q) {
    view.popup_was_open = view.popup_open;
    view.popup_open = false;
    if (q.rows.empty()) return {};
    if (q.type == "cloze") return cloze_rows(view, ui, q);
    return q.type == "matching" ? matching_rows(view, ui, q) : ordering_rows(view, ui, q);
}

}  // namespace imquiz::ui
