#include "ui/exam_controls.h"

#include <algorithm>

namespace imquiz::ui {

using app::Action;

Action exam_palette(const UiContext& ui, const app::ExamModel& exam) {
    Action action;
    text_wrapped(ui, ui.fonts.small, exam.heading + "  ·  " + exam.answered, ui.palette.text_muted);
    // The countdown, in the warning colour (and with the warning's words) near the end.
    if (!exam.time_left.empty())
        text_wrapped(ui, exam.time_warning.empty() ? ui.fonts.body : ui.fonts.heading,
                     exam.time_warning.empty() ? exam.time_left : exam.time_left + "  ·  " + exam.time_warning,
                     exam.time_warning.empty() ? ui.palette.text : ui.palette.wrong);
    const float size = ui.px(40), gap = ui.px(8);
    const float width = ImGui::GetContentRegionAvail().x;
    const int per_row = std::max(1, static_cast<int>((width + gap) / (size + gap)));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImFont* font = ui.fonts.small;
    for (std::size_t i = 0; i < exam.palette.size(); ++i) {
        const app::PaletteItemModel& item = exam.palette[i];
        if (i % static_cast<std::size_t>(per_row) != 0) ImGui::SameLine(0, gap);
        ImGui::PushID(item.id.c_str());
        const ImVec2 pos = ImGui::GetCursorScreenPos();
        if (ImGui::InvisibleButton("##question", ImVec2(size, size)) && !ui.touch_scrolling) action = item.action;
        const bool hovered = ImGui::IsItemHovered();
        record_item(ui, item.id, item.label);
        const ImRect rect(pos, pos + ImVec2(size, size));
        focus_ring(ui, rect, ui.px(8));
        // Answered: filled; not answered: an outline; the one shown: a thick accent border.
        draw->AddRectFilled(rect.Min, rect.Max, item.answered ? ui.palette.accent_soft
                                                : hovered     ? ui.palette.surface_hover
                                                              : ui.palette.surface, ui.px(8));
        draw->AddRect(rect.Min, rect.Max, item.current || item.answered ? ui.palette.accent : ui.palette.border, ui.px(8), 0,
                      ui.px(item.current ? 3.0f : 1.5f));
        const ImVec2 text = font->CalcTextSizeA(font_size(font), FLT_MAX, 0.0f, item.number.c_str());
        draw->AddText(font, font_size(font), rect.GetCenter() - text * 0.5f, ui.palette.text, item.number.c_str());
        // Answered: a small tick in the corner too (a shape, so not the fill alone).
        if (item.answered) icon_check(draw, ImVec2(rect.Max.x - size * 0.2f, rect.Max.y - size * 0.2f), size * 0.3f, ui.palette.accent);
        // Flagged: a corner folded in the warning colour (a shape, so not colour alone).
        if (item.flagged) {
            const float corner = size * 0.38f;
            draw->AddTriangleFilled(ImVec2(rect.Max.x - corner, rect.Min.y), ImVec2(rect.Max.x, rect.Min.y),
                                    ImVec2(rect.Max.x, rect.Min.y + corner), ui.palette.wrong);
        }
        ImGui::PopID();
    }
    ImGui::Spacing();
    return action;
}

Action exam_controls(QuestionView& view, const UiContext& ui, const app::QuestionModel& q) {
    Action action;
    const app::ExamModel& exam = *q.exam;
    auto take = [&](const Action& pressed) {
        if (pressed.kind != Action::Kind::None) action = pressed;
    };
    if (exam.confirmation) {
        if (!view.confirm_shown) {
            ImGui::SetScrollHereY(0.3f);
            view.confirm_shown = true;
        }
        panel_begin(ui, "confirm-submit");
        text_wrapped(ui, ui.fonts.body, exam.confirmation->question, ui.palette.text);
        text_wrapped(ui, ui.fonts.small, exam.unanswered, ui.palette.text_muted);
        ImGui::Spacing();
        take(model_button(ui, exam.confirmation->confirm));
        ImGui::SameLine();
        take(model_button(ui, exam.confirmation->cancel));
        panel_end(ui, ui.palette.accent_soft, ui.palette.accent);
        return action;
    }
    view.confirm_shown = false;
    const float width = ImGui::GetContentRegionAvail().x;
    const float half = (width - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    // Side by side where both labels fit in half the width; one above the other where not (320 px).
    const auto fits = [&](const app::ButtonModel& button) {
        return ImGui::CalcTextSize(button.label.c_str()).x + ui.px(32) <= half;
    };
    const bool side_by_side = exam.previous && fits(*exam.previous) && fits(exam.flag);
    if (exam.previous) {
        take(model_button(ui, *exam.previous, side_by_side ? half : width));
        if (side_by_side) ImGui::SameLine();
    }
    take(model_button(ui, exam.flag, side_by_side ? half : width));
    ImGui::Spacing();
    take(model_button(ui, q.primary, width));
    if (q.primary.id != "finish") take(model_button(ui, exam.submit, width));
    return action;
}

}  // namespace imquiz::ui
