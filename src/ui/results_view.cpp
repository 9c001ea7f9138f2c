#include "ui/views.h"

#include "ui/progress_pictures.h"
#include "ui/rich_text.h"

namespace imquiz::ui {

namespace {
// A link a text's learner activated, unless something else already was this frame.
void keep_link(const Action& link, Action& action) {
    if (link.kind != Action::Kind::None && action.kind == Action::Kind::None) action = link;
}
}  // namespace

Action draw_results(ResultsView& view, const UiContext& ui, const app::ResultsModel& r) {
    Action action;
    if (!r.present) return action;
    if (view.scroll_to_top) {
        ImGui::SetScrollY(0);
        view.scroll_to_top = false;
    }

    text_wrapped(ui, ui.fonts.small, r.quiz_title, ui.palette.text_muted);
    text_wrapped(ui, ui.fonts.heading, r.heading, ui.palette.text);

    // The score card: percent, points, pass or fail (in words, not only in colour), time.
    panel_begin(ui, "score");
    text_wrapped(ui, ui.fonts.heading, r.percent_text, r.passed ? ui.palette.correct : ui.palette.wrong);
    text_wrapped(ui, ui.fonts.body, r.points, ui.palette.text);
    badge(ui, r.verdict, r.passed ? ui.palette.correct : ui.palette.wrong,
          r.passed ? ui.palette.correct_soft : ui.palette.wrong_soft);
    text_wrapped(ui, ui.fonts.small, r.details, ui.palette.text_muted);
    // The bank's words for this score range.
    if (r.feedback_rich) {
        ImGui::Spacing();
        keep_link(rich_text(ui, "range-feedback", *r.feedback_rich, TextSize::Body, ui.palette.text), action);
    } else if (!r.feedback.empty()) {
        ImGui::Spacing();
        text_wrapped(ui, ui.fonts.body, r.feedback, ui.palette.text);
    }
    panel_end(ui, ui.palette.surface, ui.palette.border);

    ImGui::Spacing();
    float width = ImGui::GetContentRegionAvail().x;
    for (const auto& b : r.buttons) {
        Action pressed = model_button(ui, b, width);
        if (pressed.kind != Action::Kind::None) action = pressed;
    }

    // Progress: past scores (from a second attempt on) and what is known per tag.
    ImGui::Spacing();
    panel_begin(ui, "progress");
    score_chart(ui, r.scores);
    if (!r.scores.bars.empty()) ImGui::Spacing();
    mastery_bars(ui, r.mastery);
    panel_end(ui, ui.palette.surface, ui.palette.border);

    // Every question: outcome, your answer, the right one, the explanation (unless an exam shows
    // the score only).
    ImGui::Spacing();
    if (!r.score_only.empty()) text_wrapped(ui, ui.fonts.body, r.score_only, ui.palette.text_muted);
    std::string heights_key = r.attempt_id + "/" + r.heading + "/" + std::to_string(ui.metrics.text_scale) + "/" +
                              std::to_string(ImGui::GetContentRegionAvail().x);
    if (view.panel_heights_key != heights_key || view.panel_heights.size() != r.rows.size()) {
        view.panel_heights_key = heights_key;
        view.panel_heights.assign(r.rows.size(), 0.0f);
        view.measured_sum = 0;
        view.measured_count = 0;
    }
    ImRect visible = ImGui::GetCurrentWindow()->ClipRect;
    // Panels off screen not measured yet take the average height of those that were: a
    // 20,000-question attempt must not draw 20,000 panels in its first frame just to measure
    // them (each is measured when it first comes into view, and the scroll range settles).
    float estimate = view.measured_count ? view.measured_sum / static_cast<float>(view.measured_count) : ui.px(180);
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        const app::ResultRowModel& row = r.rows[i];
        float& measured = view.panel_heights[i];
        float top = ImGui::GetCursorPosY();
        float screen_top = ImGui::GetCursorScreenPos().y;
        if (measured == 0 && (screen_top > visible.Max.y || screen_top + estimate < visible.Min.y)) {
            ImGui::SetCursorPosY(top + estimate);
            continue;
        }
        if (measured > 0 && (screen_top > visible.Max.y || screen_top + measured < visible.Min.y)) {
            ImGui::SetCursorPosY(top + measured);  // off screen: its space, not its drawing
            continue;
        }
        ImGui::PushID(static_cast<int>(i));
        panel_begin(ui, "question");
        ImVec2 pos = ImGui::GetCursorScreenPos();
        float icon = ui.px(20);
        ImDrawList* draw = ImGui::GetWindowDrawList();
        ImVec2 center(pos.x + icon * 0.5f, pos.y + ImGui::GetTextLineHeight() * 0.5f);
        uint32_t color = row.correct ? ui.palette.correct : ui.palette.wrong;
        if (row.correct) icon_check(draw, center, icon * 1.4f, color);
        else icon_cross(draw, center, icon * 1.4f, color);
        ImGui::SetCursorScreenPos(ImVec2(pos.x + icon + ui.px(8), pos.y));
        text_wrapped(ui, ui.fonts.small, row.heading, color);
        if (row.prompt_rich) keep_link(rich_text(ui, "prompt", *row.prompt_rich, TextSize::Body, ui.palette.text), action);
        else text_wrapped(ui, ui.fonts.body, row.prompt, ui.palette.text);
        text_wrapped(ui, ui.fonts.small, row.your_answer_line, row.correct ? ui.palette.text : ui.palette.wrong);
        if (!row.correct_answer_line.empty()) text_wrapped(ui, ui.fonts.small, row.correct_answer_line, ui.palette.correct);
        if (!row.costs.empty()) text_wrapped(ui, ui.fonts.small, row.costs, ui.palette.text_muted);
        if (row.explanation_rich)
            keep_link(rich_text(ui, "explanation", *row.explanation_rich, TextSize::Small, ui.palette.text_muted), action);
        else if (!row.explanation.empty())
            text_wrapped(ui, ui.fonts.small, row.explanation, ui.palette.text_muted);
        panel_end(ui, ui.palette.surface, ui.palette.border);
        ImGui::PopID();
        ImGui::Spacing();
        const float height = ImGui::GetCursorPosY() - top;
        if (measured == 0) ++view.measured_count;
        view.measured_sum += height - measured;
        measured = height;
    }

    // Past attempts of this quiz, newest first.
    if (!r.past_attempts.empty()) {
        text_wrapped(ui, ui.fonts.body, r.past_heading, ui.palette.text);
        for (const auto& line : r.past_attempts) text_wrapped(ui, ui.fonts.small, line, ui.palette.text_muted);
    }
    return action;
}

}  // namespace imquiz::ui
