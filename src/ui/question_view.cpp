#include "ui/views.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace imquiz::ui {

namespace {

struct ChoiceRow {
    std::string id;
    std::string text;
    std::string feedback;
    bool correct = false;
    bool selected = false;
};

// The answer options as the learner sees them: bank choices in attempt order, or True / False.
std::vector<ChoiceRow> choice_rows(const UiContext& ui, const AppState& state, const Bank& bank,
                                   const Question& question) {
    const std::string language = state.language_code();
    const SessionQuestion& slot = state.session->questions[state.session->current];
    std::vector<ChoiceRow> rows;
    auto is_selected = [&](const std::string& id) {
        return std::find(state.draft.selected.begin(), state.draft.selected.end(), id) != state.draft.selected.end();
    };
    if (question.type == QuestionType::TrueFalse) {
        rows.push_back({"true", ui.str(Str::TrueLabel), "", question.true_false_answer, is_selected("true")});
        rows.push_back({"false", ui.str(Str::FalseLabel), "", !question.true_false_answer, is_selected("false")});
        if (state.feedback && slot.answer) {
            bool given = slot.answer->response.true_false;
            rows[0].selected = given;
            rows[1].selected = !given;
        }
        return rows;
    }
    for (const Choice* choice : choices_in_order(slot, question)) {
        ChoiceRow row{choice->id, bank.text(choice->text, language), "", choice->correct, is_selected(choice->id)};
        if (state.feedback) {
            for (const auto& f : state.feedback->choices) {
                if (f.choice_id != choice->id) continue;
                row.selected = f.selected;
                if (!f.feedback.empty()) row.feedback = bank.text(f.feedback, language);
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

CardState card_state(const AppState& state, const ChoiceRow& row) {
    if (!state.feedback) return row.selected ? CardState::Selected : CardState::Normal;
    if (row.correct) return row.selected ? CardState::Correct : CardState::CorrectMissed;
    return row.selected ? CardState::Wrong : CardState::Locked;
}

std::string status_label(const UiContext& ui, CardState state) {
    switch (state) {
    case CardState::Correct: return std::string(ui.str(Str::YourAnswer)) + " · " + ui.str(Str::Correct);
    case CardState::CorrectMissed: return ui.str(Str::CorrectAnswer);
    case CardState::Wrong: return std::string(ui.str(Str::YourAnswer)) + " · " + ui.str(Str::Incorrect);
    default: return {};
    }
}

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

void verdict_banner(const UiContext& ui, const Feedback& feedback) {
    bool partial = !feedback.correct && feedback.score > 0.0;
    uint32_t color = feedback.correct ? ui.palette.correct : ui.palette.wrong;
    uint32_t soft = feedback.correct ? ui.palette.correct_soft : ui.palette.wrong_soft;
    const char* word = ui.str(feedback.correct ? Str::Correct : partial ? Str::PartlyCorrect : Str::Incorrect);
    float height = ui.px(52);
    float width = ImGui::GetContentRegionAvail().x;
    ImVec2 pos = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(pos, pos + ImVec2(width, height), soft, ui.px(12));
    float icon = ui.px(30);
    ImVec2 center(pos.x + ui.px(16) + icon * 0.5f, pos.y + height * 0.5f);
    draw->AddCircleFilled(center, icon * 0.5f, color);
    uint32_t mark = ui.palette.dark ? ui.palette.background : rgb(0xFFFFFF);
    if (feedback.correct) icon_check(draw, center, icon, mark);
    else icon_cross(draw, center, icon, mark);
    ImFont* font = ui.fonts.heading;
    float size = font->FontSize * ImGui::GetIO().FontGlobalScale;
    draw->AddText(font, size, ImVec2(center.x + icon * 0.5f + ui.px(12), pos.y + (height - size) * 0.5f), color, word);
    ImGui::Dummy(ImVec2(width, height));
}

}  // namespace

Action draw_question(QuestionView& view, const UiContext& ui, const AppState& state) {
    Action action;
    const Bank* bank = state.active();
    if (!bank || !state.session) return action;
    const Session& session = *state.session;
    const Question* question = current_question(session, *bank);
    if (!question) return action;
    const std::string language = state.language_code();

    if (view.shown_question != session.current) {
        view.shown_question = session.current;
        view.scroll_to_top = true;
    }
    if (view.scroll_to_top) {
        ImGui::SetScrollY(0);
        view.scroll_to_top = false;
    }

    // Top bar: back, quiz title, "3 / 8" and the progress bar.
    float full = ImGui::GetContentRegionAvail().x;
    float start_x = ImGui::GetCursorPosX();
    if (!state.embed) {
        if (button(ui, "back", std::string("‹ ") + ui.str(Str::Back), ButtonKind::Quiet))
            action.kind = Action::Kind::BackToCatalog;
        ImGui::SameLine();
    }
    char counter[32];
    std::snprintf(counter, sizeof counter, "%d / %d", static_cast<int>(session.current + 1),
                  static_cast<int>(session.questions.size()));
    float counter_width = ImGui::CalcTextSize(counter).x;
    // Vertically centred on the back button's row (buttons are px(46) tall).
    float row_y = ImGui::GetCursorPosY();
    ImGui::SameLine(start_x + full - counter_width);
    if (!state.embed) ImGui::SetCursorPosY(row_y + (ui.px(46) - ImGui::GetTextLineHeight()) * 0.5f);
    ImGui::TextUnformatted(counter);
    progress_bar(ui, static_cast<float>(session.current + (state.feedback ? 1 : 0)) /
                         static_cast<float>(std::max<std::size_t>(1, session.questions.size())),
                 ui.px(6));
    ImGui::Spacing();
    text_wrapped(ui, ui.fonts.small, bank->text(bank->title, language), ui.palette.text_muted);
    text_wrapped(ui, ui.fonts.heading, bank->text(question->prompt, language), ui.palette.text);

    bool checked = state.feedback.has_value();
    bool is_choice = question->type == QuestionType::SingleChoice || question->type == QuestionType::MultipleChoice ||
                     question->type == QuestionType::TrueFalse;
    if (!checked && is_choice) {
        text_wrapped(ui, ui.fonts.small,
                     ui.str(question->type == QuestionType::MultipleChoice ? Str::SelectAll : Str::SelectOne),
                     ui.palette.text_muted);
    }
    ImGui::Spacing();

    bool can_check = false;
    if (is_choice) {
        std::vector<ChoiceRow> rows = choice_rows(ui, state, *bank, *question);
        int digit = digit_pressed();
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const ChoiceRow& row = rows[i];
            ChoiceCard card;
            card.id = row.id.c_str();
            card.marker = i < 9 ? std::to_string(i + 1) : std::string(1, static_cast<char>('a' + i - 9));
            card.text = row.text;
            card.state = card_state(state, row);
            card.status_label = status_label(ui, card.state);
            card.feedback = row.feedback;
            card.multiple = question->type == QuestionType::MultipleChoice;
            bool pressed = choice_card(ui, card);
            if ((pressed || (digit > 0 && static_cast<std::size_t>(digit) == i + 1)) && !checked) {
                action.kind = Action::Kind::SelectChoice;
                action.choice_id = row.id;
            }
        }
        can_check = !state.draft.selected.empty();
    } else {
        // Numeric and short text: the canvas draws the field's frame; the typing itself happens in
        // a real <input> that web/text-field.js lays exactly over it (item "input:answer"), so
        // on-screen keyboards, IMEs, autocorrect and screen readers all work as in any web form.
        const char* hint = ui.str(question->type == QuestionType::Numeric ? Str::TypeNumber : Str::TypeAnswer);
        float width = ImGui::GetContentRegionAvail().x;
        float height = ui.px(52);
        ImVec2 pos = ImGui::GetCursorScreenPos();
        ImGui::InvisibleButton("##answer", ImVec2(width, height));
        record_item(ui, "input:answer", hint);
        ImDrawList* draw = ImGui::GetWindowDrawList();
        uint32_t border = checked ? (state.feedback->correct ? ui.palette.correct : ui.palette.wrong) : ui.palette.accent;
        draw->AddRectFilled(pos, pos + ImVec2(width, height), checked ? ui.palette.surface_hover : ui.palette.surface, ui.px(10));
        draw->AddRect(pos, pos + ImVec2(width, height), border, ui.px(10), 0, ui.px(2));
        if (state.draft.typed.empty() && !checked) {
            ImFont* font = ui.fonts.body;
            float size = font->FontSize * ImGui::GetIO().FontGlobalScale;
            draw->AddText(font, size, ImVec2(pos.x + ui.px(14), pos.y + (height - size) * 0.5f), ui.palette.text_muted, hint);
        }
        if (!question->unit.empty()) text_wrapped(ui, ui.fonts.small, bank->text(question->unit, language), ui.palette.text_muted);
        can_check = state.draft.typed.find_first_not_of(" \t") != std::string::npos;
    }

    ImGui::Spacing();
    if (checked) {
        const Feedback& feedback = *state.feedback;
        if (view.scroll_to_feedback) {
            ImGui::SetScrollHereY(0.2f);
            view.scroll_to_feedback = false;
        }
        verdict_banner(ui, feedback);
        if (!is_choice) {
            // Typed answers: say what was expected.
            std::string expected;
            CorrectAnswer answer = feedback.correct_answer;
            char buffer[96];
            if (question->type == QuestionType::Numeric) {
                if (answer.numeric.form == NumericAnswer::Form::Range)
                    std::snprintf(buffer, sizeof buffer, "%g – %g", answer.numeric.min, answer.numeric.max);
                else if (answer.numeric.tolerance > 0)
                    std::snprintf(buffer, sizeof buffer, "%g ± %g", answer.numeric.value, answer.numeric.tolerance);
                else
                    std::snprintf(buffer, sizeof buffer, "%g", answer.numeric.value);
                expected = buffer;
            } else if (!answer.accepted_texts.empty()) {
                expected = bank->text(answer.accepted_texts.front(), language);
            }
            text_wrapped(ui, ui.fonts.body, std::string(ui.str(Str::CorrectAnswer)) + ": " + expected, ui.palette.text);
        }
        const std::string& explanation = bank->text(feedback.explanation, language);
        if (!explanation.empty()) {
            panel_begin(ui, "explanation");
            text_wrapped(ui, ui.fonts.small, ui.str(Str::Explanation), ui.palette.text_muted);
            text_wrapped(ui, ui.fonts.body, explanation, ui.palette.text);
            panel_end(ui, ui.palette.surface, ui.palette.border);
        }
        ImGui::Spacing();
        bool last = session.current + 1 >= session.questions.size();
        if (button(ui, "next", ui.str(last ? Str::SeeResults : Str::Next), ButtonKind::Primary,
                   ImGui::GetContentRegionAvail().x) ||
            (enter_pressed() && action.kind == Action::Kind::None))
            action.kind = Action::Kind::Next;
    } else {
        if (button(ui, "check", ui.str(Str::Check), ButtonKind::Primary, ImGui::GetContentRegionAvail().x, can_check) ||
            (enter_pressed() && can_check && action.kind == Action::Kind::None))
            action.kind = Action::Kind::Check;
        if (action.kind == Action::Kind::Check) view.scroll_to_feedback = true;
    }
    if (!ui.touch_input) text_wrapped(ui, ui.fonts.small, ui.str(Str::ShortcutsHint), ui.palette.text_muted);
    return action;
}

}  // namespace imquiz::ui
