#include "ui/progress_pictures.h"

#include <algorithm>
#include <cfloat>

namespace imquiz::ui {

namespace {

uint32_t lighter(uint32_t color) { return (color & 0x00FFFFFFu) | (0x70u << IM_COL32_A_SHIFT); }

// A rounded bar of `questions` parts: right (the "correct" colour), seen but never right (muted
// text colour), not seen (the track). Its height in CSS px; the width of the room (widgets.h).
void three_part_bar(const UiContext& ui, int questions, int seen, int right, float height) {
    const float width = room_x();
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const float h = ui.px(height), rounding = h * 0.5f;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(pos, pos + ImVec2(width, h), ui.palette.border, rounding);
    if (questions > 0) {
        const float seen_w = width * static_cast<float>(std::min(seen, questions)) / static_cast<float>(questions);
        const float right_w = width * static_cast<float>(std::min(right, questions)) / static_cast<float>(questions);
        if (seen_w > 0) draw->AddRectFilled(pos, pos + ImVec2(std::max(h, seen_w), h), ui.palette.text_muted, rounding);
        if (right_w > 0) draw->AddRectFilled(pos, pos + ImVec2(std::max(h, right_w), h), ui.palette.correct, rounding);
    }
    ImGui::Dummy(ImVec2(width, h));
}

void dashed_line(ImDrawList* draw, ImVec2 from, float to_x, float dash, float thickness, uint32_t color) {
    for (float x = from.x; x < to_x; x += dash * 2)
        draw->AddLine(ImVec2(x, from.y), ImVec2(std::min(x + dash, to_x), from.y), color, thickness);
}

}  // namespace

void score_chart(const UiContext& ui, const app::ScoreChartModel& chart) {
    if (chart.bars.empty()) return;
    text_wrapped(ui, ui.fonts.body, chart.heading, ui.palette.text);
    text_wrapped(ui, ui.fonts.small, chart.pass_line, ui.palette.text_muted);
    ImFont* small = ui.fonts.small;
    const float small_size = font_size(small);
    const float width = room_x();
    const float plot = ui.px(96);                         // 100% is this tall
    const float top_label = small_size + ui.px(4);        // the score above a full bar
    const float bottom_label = small_size + ui.px(6);     // the attempt's number
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float base = origin.y + top_label + plot;       // the bars stand on this line
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const std::size_t count = chart.bars.size();
    const float slot = std::min(width / static_cast<float>(count), ui.px(56));
    const float bar_w = std::max(ui.px(6), slot * 0.62f);
    draw->AddLine(ImVec2(origin.x, base), ImVec2(origin.x + slot * static_cast<float>(count), base), ui.palette.border,
                  ui.px(1));
    for (std::size_t i = 0; i < count; ++i) {
        const app::ScoreBarModel& bar = chart.bars[i];
        const float center = origin.x + slot * (static_cast<float>(i) + 0.5f);
        const float height = std::max(ui.px(2), plot * static_cast<float>(std::clamp(bar.percent, 0.0, 100.0) / 100.0));
        const uint32_t color = bar.passed ? ui.palette.correct : ui.palette.wrong;
        const ImVec2 min(center - bar_w * 0.5f, base - height), max(center + bar_w * 0.5f, base);
        draw->AddRectFilled(min, max, bar.current ? color : lighter(color), ui.px(3), ImDrawFlags_RoundCornersTop);
        const uint32_t label_color = bar.current ? ui.palette.text : ui.palette.text_muted;
        // The score, where it fits over the bar; the table (the mirror's) always has it.
        const ImVec2 value_size = small->CalcTextSizeA(small_size, FLT_MAX, 0, bar.value.c_str());
        if (value_size.x <= slot - ui.px(2))
            draw->AddText(small, small_size, ImVec2(center - value_size.x * 0.5f, min.y - value_size.y - ui.px(2)),
                          label_color, bar.value.c_str());
        const ImVec2 label_size = small->CalcTextSizeA(small_size, FLT_MAX, 0, bar.label.c_str());
        if (label_size.x <= slot - ui.px(2) || bar.current)
            draw->AddText(small, small_size, ImVec2(center - label_size.x * 0.5f, base + ui.px(4)), label_color,
                          bar.label.c_str());
        if (bar.current)  // marked by more than colour: a line under its number
            draw->AddLine(ImVec2(center - label_size.x * 0.5f, base + ui.px(5) + label_size.y),
                          ImVec2(center + label_size.x * 0.5f, base + ui.px(5) + label_size.y), ui.palette.text, ui.px(1.5f));
    }
    // The pass mark across the bars, over them.
    const float pass_y = base - plot * static_cast<float>(std::clamp(chart.pass_percent, 0, 100)) / 100.0f;
    dashed_line(draw, ImVec2(origin.x, pass_y), origin.x + slot * static_cast<float>(count), ui.px(5), ui.px(1.5f),
                ui.palette.text);
    ImGui::Dummy(ImVec2(width, top_label + plot + bottom_label));
    record_rect(ui, "chart:scores", chart.heading, origin,
                ImVec2(origin.x + slot * static_cast<float>(count), base + bottom_label));
}

void mastery_bars(const UiContext& ui, const app::MasteryModel& mastery) {
    if (mastery.bars.empty()) return;
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const float width = room_x();
    text_wrapped(ui, ui.fonts.body, mastery.heading, ui.palette.text);
    for (const app::MasteryBarModel& bar : mastery.bars) {
        ImGui::Spacing();
        text_wrapped(ui, ui.fonts.small, bar.topic, ui.palette.text);
        three_part_bar(ui, bar.questions, bar.seen, bar.right, 8);
        text_wrapped(ui, ui.fonts.small, bar.counts, ui.palette.text_muted);
    }
    record_rect(ui, "chart:mastery", mastery.heading, top, ImVec2(top.x + width, ImGui::GetCursorScreenPos().y));
}

void progress_meter(const UiContext& ui, const app::CardProgressModel& progress) {
    three_part_bar(ui, progress.questions, progress.seen, progress.right, 6);
    text_wrapped(ui, ui.fonts.small, progress.text, ui.palette.text_muted);
}

}  // namespace imquiz::ui
