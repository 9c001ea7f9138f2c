#include "ui/answer_field.h"

#include <cstdio>

namespace imquiz::ui {

std::optional<std::string> answer_frame(const UiContext& ui, const app::AnswerFieldModel& field, const std::string& item_id,
                                        const AnswerFrameStyle& style) {
    float width = style.width > 0 ? style.width : ImGui::GetContentRegionAvail().x;
    float height = ui.px(52);
    ImVec2 pos = ImGui::GetCursorScreenPos();
    ImFont* font = ui.fonts.body;
    float size = font->FontSize * ImGui::GetIO().FontGlobalScale;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    uint32_t border = style.checked || field.problem.empty() ? style.border : ui.palette.wrong;
    draw->AddRectFilled(pos, pos + ImVec2(width, height), style.checked ? ui.palette.surface_hover : ui.palette.surface, ui.px(10));
    draw->AddRect(pos, pos + ImVec2(width, height), border, ui.px(10), 0, ui.px(2));
    std::optional<std::string> edited;
    ImGui::PushID(item_id.c_str());
    if (ui.draw_text_fields) {
        const float inset = ui.px(14);
        ImGui::SetCursorScreenPos(ImVec2(pos.x + inset, pos.y + (height - ImGui::GetFrameHeight()) * 0.5f));
        ImGui::PushStyleColor(ImGuiCol_FrameBg, 0);
        ImGui::PushStyleColor(ImGuiCol_FrameBgHovered, 0);
        ImGui::PushStyleColor(ImGuiCol_FrameBgActive, 0);
        ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 0.0f);  // the answer frame is the border
        ImGui::SetNextItemWidth(width - inset * 2);
        if (style.take_focus && !style.checked) ImGui::SetKeyboardFocusHere();
        char buffer[1024];
        std::snprintf(buffer, sizeof buffer, "%s", field.value.c_str());
        ImGuiInputTextFlags flags = style.checked || field.read_only ? ImGuiInputTextFlags_ReadOnly : 0;
        if (ImGui::InputTextWithHint("##answer", field.label.c_str(), buffer, sizeof buffer, flags)) edited = std::string(buffer);
        ImGui::PopStyleVar();
        ImGui::PopStyleColor(3);
        ImGui::SetCursorScreenPos(pos);
        ImGui::Dummy(ImVec2(width, height));
        record_text_item(ui, item_id, field.label, size, ui.px(14), ui.palette.text);
    } else {
        ImGui::InvisibleButton("##answer", ImVec2(width, height));
        // The frame's rectangle, and whether the canvas keyboard is on it (the page's field then
        // takes the keys).
        record_text_item(ui, item_id, field.label, size, ui.px(14), ui.palette.text);
        focus_ring(ui, ImRect(pos, pos + ImVec2(width, height)), ui.px(10));
        if (field.value.empty() && !style.checked)
            draw->AddText(font, size, ImVec2(pos.x + ui.px(14), pos.y + (height - size) * 0.5f), ui.palette.text_muted,
                          field.label.c_str());
    }
    ImGui::PopID();
    if (!field.unit.empty()) text_wrapped(ui, ui.fonts.small, field.unit, ui.palette.text_muted);
    if (!field.problem.empty()) text_wrapped(ui, ui.fonts.small, field.problem, ui.palette.wrong);
    return edited;
}

}  // namespace imquiz::ui
