#include "ui/views.h"

#include "ui/answer_field.h"
#include "ui/exam_controls.h"
#include "ui/question_rows.h"
#include "ui/rich_text.h"

#include <algorithm>

namespace imquiz::ui {

namespace {

// Digits typed this frame (1-9 pick a choice).
int digit_pressed() {
    for (ImWchar c : ImGui::GetIO().InputQueueCharacters)
        if (c >= '1' && c <= '9') return static_cast<int>(c - '0');
    return 0;
}

bool enter_pressed() {
    return ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false) ||
           ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter), false);
}

void verdict_banner(const UiContext& ui, const app::VerdictModel& verdict) {
    bool right = verdict.tone == app::VerdictModel::Tone::Correct;
    uint32_t color = right ? ui.palette.correct : ui.palette.wrong;
    uint32_t soft = right ? ui.palette.correct_soft : ui.palette.wrong_soft;
    float height = ui.px(52);
    float width = ImGui::GetContentRegionAvail().x;
    ImVec2 pos = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(pos, pos + ImVec2(width, height), soft, ui.px(12));
    float icon = ui.px(30);
    ImVec2 center(pos.x + ui.px(16) + icon * 0.5f, pos.y + height * 0.5f);
    draw->AddCircleFilled(center, icon * 0.5f, color);
    uint32_t mark = ui.palette.dark ? ui.palette.background : rgb(0xFFFFFF);
    if (right) icon_check(draw, center, icon, mark);
    else icon_cross(draw, center, icon, mark);
    ImFont* font = ui.fonts.heading;
    float size = font->FontSize * ImGui::GetIO().FontGlobalScale;
    draw->AddText(font, size, ImVec2(center.x + icon * 0.5f + ui.px(12), pos.y + (height - size) * 0.5f), color,
                  verdict.word.c_str());
    ImGui::Dummy(ImVec2(width, height));
}

// A small heading over a text (the explanation, a hint) in a panel; returns a link the text's
// reader followed, if any.
Action headed_panel(const UiContext& ui, const char* id, const std::string& heading, const std::string& text,
                    const app::RichTextRef& rich, uint32_t background, uint32_t border) {
    Action link;
    panel_begin(ui, id);
    text_wrapped(ui, ui.fonts.small, heading, ui.palette.text_muted);
    if (rich) link = rich_text(ui, id, *rich, TextSize::Body, ui.palette.text);
    else text_wrapped(ui, ui.fonts.body, text, ui.palette.text);
    panel_end(ui, background, border);
    return link;
}

}  // namespace

Action draw_question(QuestionView& view, const UiContext& ui, const app::QuestionModel& q) {
    Action action;
    if (!q.present) return action;
    std::string key = q.quiz_title + "\n" + std::to_string(q.index) + "/" + std::to_string(q.total) + ":" + q.id;
    if (view.shown_question != key) {
        view.shown_question = key;
        view.scroll_to_top = true;
        view.focus_answer = true;
    }
    if (view.scroll_to_top) {
        ImGui::SetScrollY(0);
        view.scroll_to_top = false;
    }

    // Top bar: back, "3 / 8" and the progress bar.
    float full = ImGui::GetContentRegionAvail().x;
    float start_x = ImGui::GetCursorPosX();
    if (q.back) {
        action = model_button(ui, *q.back, 0.0f, "‹ ");
        ImGui::SameLine();
    }
    float counter_width = ImGui::CalcTextSize(q.counter.c_str()).x;
    // Vertically centred on the back button's row (buttons are px(46) tall).
    float row_y = ImGui::GetCursorPosY();
    ImGui::SameLine(start_x + full - counter_width);
    if (q.back) ImGui::SetCursorPosY(row_y + (ui.px(46) - ImGui::GetTextLineHeight()) * 0.5f);
    ImGui::TextUnformatted(q.counter.c_str());
    progress_bar(ui, q.progress, ui.px(6));
    ImGui::Spacing();
    if (q.exam) {
        Action moved = exam_palette(ui, *q.exam);
        if (moved.kind != Action::Kind::None) action = moved;
    }
    text_wrapped(ui, ui.fonts.small, q.quiz_title, ui.palette.text_muted);
    if (q.prompt_rich) {
        Action link = rich_text(ui, "prompt", *q.prompt_rich, TextSize::Heading, ui.palette.text);
        if (link.kind != Action::Kind::None) action = link;
    } else {
        text_wrapped(ui, ui.fonts.heading, q.prompt, ui.palette.text);
    }
    if (!q.instruction.empty()) text_wrapped(ui, ui.fonts.small, q.instruction, ui.palette.text_muted);
    ImGui::Spacing();

    int digit = digit_pressed();
    for (std::size_t i = 0; i < q.choices.size(); ++i) {
        const app::ChoiceModel& choice = q.choices[i];
        bool pressed = choice_card(ui, choice, q.multiple);
        if ((pressed || (digit > 0 && static_cast<std::size_t>(digit) == i + 1)) && choice.enabled) action = choice.action;
    }
    if (q.field.present) {
        AnswerFrameStyle style;
        style.border = q.checked ? (q.verdict.correct ? ui.palette.correct : ui.palette.wrong) : ui.palette.accent;
        style.checked = q.checked;
        style.take_focus = view.focus_answer;
        view.focus_answer = false;
        if (auto typed = answer_frame(ui, q.field, "input:answer", style)) {
            action = Action::of(Action::Kind::SetTypedAnswer);
            action.text = std::move(*typed);
        }
    }
    Action arranged = question_rows(view, ui, q);
    if (arranged.kind != Action::Kind::None) action = arranged;

    // The hints revealed so far, each in a panel of its own, in order.
    for (std::size_t i = 0; i < q.hints.size(); ++i) {
        const app::HintModel& hint = q.hints[i];
        ImGui::Spacing();
        ImGui::PushID(static_cast<int>(i));
        Action link = headed_panel(ui, "hint", hint.heading, hint.text, hint.text_rich, ui.palette.accent_soft, ui.palette.accent);
        if (link.kind != Action::Kind::None) action = link;
        ImGui::PopID();
    }

    ImGui::Spacing();
    if (q.try_again) {
        app::VerdictModel verdict;
        verdict.tone = q.try_again->tone;
        verdict.word = q.try_again->word;
        verdict_banner(ui, verdict);
        text_wrapped(ui, ui.fonts.body, q.try_again->message, ui.palette.text);
        ImGui::Spacing();
    }
    if (q.checked) {
        if (view.scroll_to_feedback) {
            ImGui::SetScrollHereY(0.2f);
            view.scroll_to_feedback = false;
        }
        verdict_banner(ui, q.verdict);
        if (!q.correct_answer_line.empty()) text_wrapped(ui, ui.fonts.body, q.correct_answer_line, ui.palette.text);
        if (!q.costs.empty()) text_wrapped(ui, ui.fonts.small, q.costs, ui.palette.text_muted);
        if (!q.explanation.empty()) {
            Action link = headed_panel(ui, "explanation", q.explanation_heading, q.explanation, q.explanation_rich,
                                       ui.palette.surface, ui.palette.border);
            if (link.kind != Action::Kind::None) action = link;
        }
        ImGui::Spacing();
    }
    if (!q.tries.empty()) text_wrapped(ui, ui.fonts.small, q.tries, ui.palette.text_muted);
    if (q.hint) {
        Action hint = model_button(ui, *q.hint, ImGui::GetContentRegionAvail().x);
        if (hint.kind != Action::Kind::None) action = hint;
        ImGui::Spacing();
    }
    // An exam draws its own row of buttons, the primary among them.
    Action primary = q.exam ? exam_controls(view, ui, q) : model_button(ui, q.primary, ImGui::GetContentRegionAvail().x);
    // Enter checks or goes on, unless a list of a matching item's answers is open (Space picks there).
    const bool enter_taken = view.popup_open;
    if (primary.kind == Action::Kind::None && enter_pressed() && !enter_taken && q.primary.enabled && action.kind == Action::Kind::None)
        primary = q.primary.action;
    if (primary.kind != Action::Kind::None) action = primary;
    if (action.kind == Action::Kind::Check) view.scroll_to_feedback = true;
    if (!ui.touch_input) text_wrapped(ui, ui.fonts.small, q.shortcuts, ui.palette.text_muted);
    return action;
}

}  // namespace imquiz::ui
