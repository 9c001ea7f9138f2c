#include "ui/views.h"

#include "app/time_format.h"

#include <cmath>
#include <cstdio>

namespace imquiz::ui {

namespace {

std::string format_duration(std::int64_t ms) {
    long long seconds = static_cast<long long>(ms / 1000);
    char buffer[32];
    if (seconds >= 3600)
        std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld", seconds / 3600, seconds / 60 % 60, seconds % 60);
    else
        std::snprintf(buffer, sizeof buffer, "%lld:%02lld", seconds / 60, seconds % 60);
    return buffer;
}

std::string format_points(double value) {
    char buffer[32];
    if (std::fabs(value - std::round(value)) < 1e-9) std::snprintf(buffer, sizeof buffer, "%d", static_cast<int>(std::lround(value)));
    else std::snprintf(buffer, sizeof buffer, "%.2f", value);
    return buffer;
}

// YYYY-MM-DD of a Unix time in ms (UTC; good enough to tell attempts apart).
std::string format_date(std::int64_t ms) {
    app::CivilTime t = app::civil_time(ms);
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02d", t.year, t.month, t.day);
    return buffer;
}

std::string response_text(const UiContext& ui, const Bank& bank, const Question& question,
                           const std::optional<Response>& response, const std::string& language) {
    if (!response) return ui.str(Str::NoAnswer);
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: {
        std::string out;
        for (const auto& id : response->choice_ids)
            if (const Choice* choice = question.find_choice(id))
                out += (out.empty() ? "" : "; ") + bank.text(choice->text, language);
        return out.empty() ? ui.str(Str::NoAnswer) : out;
    }
    case QuestionType::TrueFalse: return ui.str(response->true_false ? Str::TrueLabel : Str::FalseLabel);
    default: return response->text;
    }
}

std::string correct_text(const UiContext& ui, const Bank& bank, const Question& question, const CorrectAnswer& answer,
                         const std::string& language) {
    char buffer[96];
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: {
        std::string out;
        for (const auto& id : answer.choice_ids)
            if (const Choice* choice = question.find_choice(id))
                out += (out.empty() ? "" : "; ") + bank.text(choice->text, language);
        return out;
    }
    case QuestionType::TrueFalse: return ui.str(answer.true_false ? Str::TrueLabel : Str::FalseLabel);
    case QuestionType::Numeric:
        if (answer.numeric.form == NumericAnswer::Form::Range)
            std::snprintf(buffer, sizeof buffer, "%g – %g", answer.numeric.min, answer.numeric.max);
        else
            std::snprintf(buffer, sizeof buffer, "%g ± %g", answer.numeric.value, answer.numeric.tolerance);
        return buffer;
    case QuestionType::ShortText:
        return answer.accepted_texts.empty() ? std::string() : bank.text(answer.accepted_texts.front(), language);
    }
    return {};
}

}  // namespace

Action draw_results(ResultsView& view, const UiContext& ui, const AppState& state) {
    Action action;
    const Bank* bank = state.active();
    if (!bank || !state.results) return action;
    const Results& r = *state.results;
    const std::string language = state.language_code();
    if (view.scroll_to_top) {
        ImGui::SetScrollY(0);
        view.scroll_to_top = false;
    }

    text_wrapped(ui, ui.fonts.small, bank->text(bank->title, language), ui.palette.text_muted);
    text_wrapped(ui, ui.fonts.heading, ui.str(Str::Results), ui.palette.text);

    // The score card: percent, points, pass or fail (in words, not only in colour), time.
    panel_begin(ui, "score");
    char percent[32];
    std::snprintf(percent, sizeof percent, "%d%%", static_cast<int>(std::lround(r.percent)));
    text_wrapped(ui, ui.fonts.heading, percent, r.passed ? ui.palette.correct : ui.palette.wrong);
    char points[96];
    std::snprintf(points, sizeof points, ui.str(Str::Score), format_points(r.score).c_str(),
                  format_points(r.max_score).c_str());
    text_wrapped(ui, ui.fonts.body, points, ui.palette.text);
    badge(ui, ui.str(r.passed ? Str::Passed : Str::NotPassed), r.passed ? ui.palette.correct : ui.palette.wrong,
          r.passed ? ui.palette.correct_soft : ui.palette.wrong_soft);
    char pass_mark[64];
    std::snprintf(pass_mark, sizeof pass_mark, ui.str(Str::PassMark), r.pass_percent);
    text_wrapped(ui, ui.fonts.small,
                 std::string(pass_mark) + "  ·  " + ui.str(Str::TimeTaken) + " " + format_duration(r.duration_ms),
                 ui.palette.text_muted);
    panel_end(ui, ui.palette.surface, ui.palette.border);

    ImGui::Spacing();
    float width = ImGui::GetContentRegionAvail().x;
    bool has_missed = !missed_question_ids(r).empty();
    if (has_missed && button(ui, "review", ui.str(Str::ReviewMistakes), ButtonKind::Primary, width))
        action.kind = Action::Kind::ReviewMistakes;
    if (button(ui, "retry", ui.str(Str::Retry), has_missed ? ButtonKind::Secondary : ButtonKind::Primary, width))
        action.kind = Action::Kind::Retry;
    if (!state.embed && button(ui, "catalog", ui.str(Str::BackToCatalog), ButtonKind::Secondary, width))
        action.kind = Action::Kind::BackToCatalog;

    // Every question: outcome, your answer, the right one, the explanation.
    ImGui::Spacing();
    std::string heights_key = r.attempt_id + "/" + language + "/" + std::to_string(ui.metrics.text_scale) + "/" +
                              std::to_string(ImGui::GetContentRegionAvail().x);
    if (view.panel_heights_key != heights_key || view.panel_heights.size() != r.questions.size()) {
        view.panel_heights_key = heights_key;
        view.panel_heights.assign(r.questions.size(), 0.0f);
    }
    ImRect visible = ImGui::GetCurrentWindow()->ClipRect;
    int number = 0;
    for (const auto& qr : r.questions) {
        ++number;
        const Question* question = bank->find_question(qr.question_id);
        if (!question) continue;
        float& measured = view.panel_heights[static_cast<std::size_t>(number - 1)];
        float top = ImGui::GetCursorPosY();
        float screen_top = ImGui::GetCursorScreenPos().y;
        if (measured > 0 && (screen_top > visible.Max.y || screen_top + measured < visible.Min.y)) {
            ImGui::SetCursorPosY(top + measured);  // off screen: its space, not its drawing
            continue;
        }
        ImGui::PushID(number);
        panel_begin(ui, "question");
        bool correct = qr.outcome == Outcome::Correct;
        bool partial = qr.outcome == Outcome::Partial;
        char heading[64];
        std::snprintf(heading, sizeof heading, "%d. %s", number,
                      ui.str(correct ? Str::Correct : partial ? Str::PartlyCorrect : Str::Incorrect));
        ImVec2 pos = ImGui::GetCursorScreenPos();
        float icon = ui.px(20);
        ImDrawList* draw = ImGui::GetWindowDrawList();
        ImVec2 center(pos.x + icon * 0.5f, pos.y + ImGui::GetTextLineHeight() * 0.5f);
        uint32_t color = correct ? ui.palette.correct : ui.palette.wrong;
        if (correct) icon_check(draw, center, icon * 1.4f, color);
        else icon_cross(draw, center, icon * 1.4f, color);
        ImGui::SetCursorScreenPos(ImVec2(pos.x + icon + ui.px(8), pos.y));
        text_wrapped(ui, ui.fonts.small, heading, color);
        text_wrapped(ui, ui.fonts.body, bank->text(question->prompt, language), ui.palette.text);
        text_wrapped(ui, ui.fonts.small,
                     std::string(ui.str(Str::YourAnswer)) + ": " +
                         response_text(ui, *bank, *question, qr.response, language),
                     correct ? ui.palette.text : ui.palette.wrong);
        if (!correct)
            text_wrapped(ui, ui.fonts.small,
                         std::string(ui.str(Str::CorrectAnswer)) + ": " +
                             correct_text(ui, *bank, *question, qr.correct_answer, language),
                         ui.palette.correct);
        const std::string& explanation = bank->text(question->explanation, language);
        if (!explanation.empty()) text_wrapped(ui, ui.fonts.small, explanation, ui.palette.text_muted);
        panel_end(ui, ui.palette.surface, ui.palette.border);
        ImGui::PopID();
        ImGui::Spacing();
        measured = ImGui::GetCursorPosY() - top;
    }

    // Past attempts of this quiz, newest first.
    const app::BankSlot& slot = state.banks[static_cast<std::size_t>(state.active_bank)];
    if (!slot.progress.finished_attempts.empty()) {
        text_wrapped(ui, ui.fonts.body, ui.str(Str::PastAttempts), ui.palette.text);
        int shown = 0;
        for (auto it = slot.progress.finished_attempts.rbegin();
             it != slot.progress.finished_attempts.rend() && shown < 10; ++it, ++shown) {
            char line[128];
            std::snprintf(line, sizeof line, "%s   %d%%   %s", format_date(it->finished_at_ms).c_str(),
                          static_cast<int>(std::lround(it->percent)), format_duration(it->duration_ms).c_str());
            text_wrapped(ui, ui.fonts.small, line, ui.palette.text_muted);
        }
    }
    return action;
}

}  // namespace imquiz::ui
