#include "app/page_protocol.h"

#include "app/player.h"

#include "engine/json/writer.h"

#include "engine/json/reader.h"

#include <utility>

namespace imquiz::app {

namespace {

// The page's name of each action, both ways. A quiz is named by its id, never by its index.
struct ActionName {
    Action::Kind kind;
    const char* type;
};
constexpr ActionName action_names[] = {
    {Action::Kind::OpenQuiz, "open"},          {Action::Kind::StartOver, "start-over"},
    {Action::Kind::RetryLoad, "retry-load"},   {Action::Kind::SelectChoice, "select"},
    {Action::Kind::SetTypedAnswer, "type"},    {Action::Kind::Check, "check"}, {Action::Kind::ShowHint, "hint"}, {Action::Kind::GoToQuestion, "go-to"},
    {Action::Kind::PreviousQuestion, "previous"}, {Action::Kind::ToggleFlag, "flag"}, {Action::Kind::Submit, "submit"},
    {Action::Kind::ConfirmSubmit, "confirm-submit"}, {Action::Kind::CancelSubmit, "cancel-submit"},
    {Action::Kind::Next, "next"},              {Action::Kind::Retry, "retry"},
    {Action::Kind::ReviewMistakes, "review"},  {Action::Kind::ReviewDue, "review-due"}, {Action::Kind::BackToCatalog, "catalog"},
    {Action::Kind::OpenSettings, "settings"},  {Action::Kind::CloseSettings, "close-settings"},
    {Action::Kind::SetLanguage, "language"},   {Action::Kind::SetTheme, "theme"},
    {Action::Kind::SetTextScale, "text-size"}, {Action::Kind::ExportProgress, "export"},
    {Action::Kind::ImportProgress, "import"},  {Action::Kind::DismissNotice, "dismiss"},
    {Action::Kind::DeleteProgress, "delete-progress"}, {Action::Kind::DeleteAllProgress, "delete-all-progress"},
    {Action::Kind::ConfirmDelete, "confirm-delete"},   {Action::Kind::CancelDelete, "cancel-delete"},
    {Action::Kind::OpenPicture, "open-picture"},       {Action::Kind::ClosePicture, "close-picture"},
    {Action::Kind::MatchItem, "match"},                {Action::Kind::MoveItem, "move"},
    {Action::Kind::FillBlank, "fill"},
    {Action::Kind::ReviewAll, "review-all"},           {Action::Kind::ReviewNextQuiz, "review-next"},
};

// A typed answer's field: the question's (numeric, short text) or a cloze blank's.
void write_field(JsonWriter& w, const AnswerFieldModel& field) {
    w.begin_object();
    w.key("label").string(field.label);
    w.key("value").string(field.value);
    w.key("unit").string(field.unit);
    w.key("numeric").boolean(field.numeric);
    w.key("readOnly").boolean(field.read_only);
    w.key("problem").string(field.problem);
    w.end_object();
}

// A formula: whether the math module typeset it (the canvas draws it then, the mirror has its
// MathML), or the module's reason when it could not (the canvas shows its TeX, marked).
void write_math(JsonWriter& w, const Inline& run, const MathFormulas& math) {
    if (run.kind != Inline::Kind::Math && run.kind != Inline::Kind::DisplayMath) return;
    const TypesetFormula* formula = math.find(run.text, run.kind == Inline::Kind::DisplayMath);
    w.key("typeset").boolean(formula && formula->ok);
    if (formula && !formula->ok) w.key("error").string(formula->error);
}

void write_runs(JsonWriter& w, const std::vector<Inline>& runs, const MathFormulas& math) {
    static const char* const kinds[] = {"text", "code", "math", "display-math", "image", "break"};
    w.begin_array();
    for (const Inline& run : runs) {
        w.begin_object();
        w.key("type").string(kinds[static_cast<int>(run.kind)]);
        if (run.kind != Inline::Kind::LineBreak) w.key("text").string(run.text);
        if (run.style & Inline::Emphasis) w.key("em").boolean(true);
        if (run.style & Inline::Strong) w.key("strong").boolean(true);
        if (run.style & Inline::Strikethrough) w.key("strike").boolean(true);
        if (!run.link.empty()) w.key(run.kind == Inline::Kind::Image ? "src" : "link").string(run.link);
        write_math(w, run, math);
        w.end_object();
    }
    w.end_array();
}

// A code block's colours as [begin, length, kind] in UTF-16 code units of its `code`, the way
// the page's JavaScript indexes strings (the model counts UTF-8 bytes).
void write_code_spans(JsonWriter& w, const Block& block) {
    static const char* const kinds[] = {"keyword", "string",   "number",      "comment",  "function", "type",
                                        "builtin", "operator", "punctuation", "property", "variable", "constant"};
    static_assert(sizeof kinds / sizeof *kinds == static_cast<std::size_t>(CodeKind::Count));
    w.key("spans").begin_array();
    std::size_t byte = 0, unit = 0;
    auto advance_to = [&](std::size_t target) {
        for (; byte < target && byte < block.code.size(); ++byte) {
            auto c = static_cast<unsigned char>(block.code[byte]);
            if ((c & 0xC0) != 0x80) unit += c >= 0xF0 ? 2 : 1;  // a character beyond U+FFFF is a surrogate pair
        }
    };
    for (const CodeSpan& span : block.spans) {
        advance_to(span.begin);
        std::size_t begin = unit;
        advance_to(std::size_t{span.begin} + span.length);
        w.begin_array();
        w.integer(static_cast<long long>(begin)).integer(static_cast<long long>(unit - begin));
        w.string(kinds[static_cast<std::size_t>(span.kind)]);
        w.end_array();
    }
    w.end_array();
}

// A Markdown bank's text as data for the mirror, which builds its DOM from it (never from markup).
void write_rich(JsonWriter& w, const char* name, const RichTextRef& text, const MathFormulas& math) {
    if (!rich_player || !text) return;
    static const char* const kinds[] = {"paragraph", "heading", "code", "rule", "table"};
    w.key(name).begin_array();
    for (const Block& block : text->blocks) {
        w.begin_object();
        w.key("type").string(kinds[static_cast<int>(block.kind)]);
        if (block.kind == Block::Kind::Heading) w.key("level").integer(block.level);
        if (block.depth > 0) w.key("depth").integer(block.depth);
        if (!block.marker.empty()) w.key("marker").string(block.marker);
        if (block.quote) w.key("quote").boolean(true);
        if (block.kind == Block::Kind::Code) {
            w.key("language").string(block.language);
            w.key("code").string(block.code);
            if (!block.spans.empty()) write_code_spans(w, block);
        }
        if (block.kind == Block::Kind::Paragraph || block.kind == Block::Kind::Heading) {
            w.key("runs");
            write_runs(w, block.inlines, math);
        }
        if (block.kind == Block::Kind::Table) {
            w.key("headerRows").integer(static_cast<long long>(block.header_rows));
            w.key("align").string(block.align);
            w.key("rows").begin_array();
            for (const auto& row : block.rows) {
                w.begin_array();
                for (const auto& cell : row) write_runs(w, cell, math);
                w.end_array();
            }
            w.end_array();
        }
        w.end_object();
    }
    w.end_array();
}

void write_action(JsonWriter& w, const AppState& state, const Action& action) {
    if (action.kind == Action::Kind::None) {
        w.null();
        return;
    }
    w.begin_object();
    for (const auto& name : action_names)
        if (name.kind == action.kind) w.key("type").string(name.type);
    switch (action.kind) {
    case Action::Kind::OpenQuiz:
    case Action::Kind::StartOver:
    case Action::Kind::ReviewDue:
    case Action::Kind::RetryLoad:
    case Action::Kind::DeleteProgress:
        if (action.bank >= 0 && action.bank < static_cast<int>(state.banks.size()))
            w.key("quiz").string(state.banks[static_cast<std::size_t>(action.bank)].id);
        break;
    case Action::Kind::SelectChoice: w.key("choice").string(action.choice_id); break;
    case Action::Kind::SetTypedAnswer: w.key("text").string(action.text); break;
    case Action::Kind::MatchItem: w.key("item").string(action.choice_id).key("answer").string(action.text); break;
    case Action::Kind::MoveItem: w.key("item").string(action.choice_id).key("to").number(action.number); break;
    case Action::Kind::FillBlank: w.key("blank").string(action.choice_id).key("value").string(action.text); break;
    case Action::Kind::GoToQuestion: w.key("question").integer(static_cast<long long>(action.number) + 1); break;
    case Action::Kind::OpenPicture: w.key("source").string(action.text); break;
    case Action::Kind::SetLanguage: w.key("value").string(language_code(action.language)); break;
    case Action::Kind::SetTheme: w.key("value").string(theme_name(action.theme)); break;
    case Action::Kind::SetTextScale: w.key("value").number(action.number); break;
    default: break;
    }
    w.end_object();
}

const char* style_name(ButtonModel::Style style) {
    switch (style) {
    case ButtonModel::Style::Primary: return "primary";
    case ButtonModel::Style::Quiet: return "quiet";
    default: return "secondary";
    }
}

void write_button(JsonWriter& w, const AppState& state, const ButtonModel& button) {
    w.begin_object();
    w.key("id").string(button.id);
    w.key("label").string(button.label);
    w.key("name").string(button.accessible_name.empty() ? button.label : button.accessible_name);
    w.key("enabled").boolean(button.enabled);
    w.key("style").string(style_name(button.style));
    w.key("action");
    write_action(w, state, button.action);
    w.end_object();
}

void write_button(JsonWriter& w, const AppState& state, const std::optional<ButtonModel>& button) {
    if (button) write_button(w, state, *button);
    else w.null();
}

void write_buttons(JsonWriter& w, const AppState& state, const std::vector<ButtonModel>& buttons) {
    w.begin_array();
    for (const auto& button : buttons) write_button(w, state, button);
    w.end_array();
}

const char* screen_name(Screen screen) {
    switch (screen) {
    case Screen::Loading: return "loading";
    case Screen::Catalog: return "catalog";
    case Screen::Question: return "question";
    case Screen::Results: return "results";
    case Screen::Settings: return "settings";
    }
    return "loading";
}

const char* card_state_name(CardModel::Status status) {
    switch (status) {
    case CardModel::Status::Loading: return "loading";
    case CardModel::Status::Ready: return "ready";
    case CardModel::Status::FetchFailed: return "fetch-failed";
    case CardModel::Status::Invalid: return "invalid";
    }
    return "loading";
}

const char* mark_name(ChoiceMark mark) {
    switch (mark) {
    case ChoiceMark::Normal: return "normal";
    case ChoiceMark::Selected: return "selected";
    case ChoiceMark::Correct: return "correct";
    case ChoiceMark::CorrectMissed: return "correct-missed";
    case ChoiceMark::Wrong: return "wrong";
    case ChoiceMark::Locked: return "locked";
    }
    return "normal";
}

const char* tone_name(VerdictModel::Tone tone) {
    switch (tone) {
    case VerdictModel::Tone::Correct: return "correct";
    case VerdictModel::Tone::Partial: return "partial";
    default: return "wrong";
    }
}

void write_table(JsonWriter& w, const TableModel& table) {
    w.begin_object();
    w.key("caption").string(table.caption);
    w.key("columns").strings(table.columns);
    w.key("rows").begin_array();
    for (const auto& row : table.rows) w.strings(row);
    w.end_array();
    w.end_object();
}

void write_scores(JsonWriter& w, const ScoreChartModel& chart) {
    w.begin_object();
    w.key("heading").string(chart.heading);
    w.key("passLine").string(chart.pass_line);
    w.key("passPercent").integer(chart.pass_percent);
    w.key("bars").begin_array();
    for (const ScoreBarModel& bar : chart.bars) {
        w.begin_object();
        w.key("label").string(bar.label);
        w.key("value").string(bar.value);
        w.key("percent").number(bar.percent);
        w.key("passed").boolean(bar.passed);
        w.key("current").boolean(bar.current);
        w.end_object();
    }
    w.end_array();
    w.key("table");
    write_table(w, chart.table);
    w.end_object();
}

void write_mastery(JsonWriter& w, const MasteryModel& mastery) {
    w.begin_object();
    w.key("heading").string(mastery.heading);
    w.key("bars").begin_array();
    for (const MasteryBarModel& bar : mastery.bars) {
        w.begin_object();
        w.key("topic").string(bar.topic);
        w.key("questions").integer(bar.questions);
        w.key("seen").integer(bar.seen);
        w.key("right").integer(bar.right);
        w.key("due").integer(bar.due);
        w.key("counts").string(bar.counts);
        w.end_object();
    }
    w.end_array();
    w.key("table");
    write_table(w, mastery.table);
    w.end_object();
}

void write_card(JsonWriter& w, const AppState& state, const CardModel& card) {
    w.begin_object();
    w.key("id").string(card.key);
    w.key("url").string(card.url);
    w.key("state").string(card_state_name(card.status));
    w.key("title").string(card.title);
    w.key("standing").string(card.standing);
    w.key("buttons");
    write_buttons(w, state, card.buttons);
    if (card.status == CardModel::Status::FetchFailed) w.key("error").string(card.problems.empty() ? "" : card.problems.front());
    if (card.status == CardModel::Status::Invalid) w.key("problems").strings(card.problems);
    // A bank that plays with a formula MathJax refused: the TeX errors, with their paths.
    if (card.status == CardModel::Status::Ready && !card.problems.empty()) w.key("problems").strings(card.problems);
    if (card.status == CardModel::Status::Ready) {
        w.key("description").string(card.description);
        write_rich(w, "descriptionRich", card.description_rich, state.math);
        w.key("meta").string(card.meta);
        w.key("hasBest").boolean(card.has_best);
        w.key("questions").integer(static_cast<long long>(card.questions));
        w.key("languages").strings(card.languages);
        w.key("inProgress").boolean(card.in_progress);
        w.key("attempts").integer(static_cast<long long>(card.attempts));
        w.key("due").integer(static_cast<long long>(card.due));
        if (card.best_percent) w.key("bestPercent").number(*card.best_percent);
        if (card.progress) {
            w.key("progress").begin_object();
            w.key("questions").integer(card.progress->questions);
            w.key("seen").integer(card.progress->seen);
            w.key("right").integer(card.progress->right);
            w.key("text").string(card.progress->text);
            w.end_object();
        }
    }
    w.end_object();
}

void write_question(JsonWriter& w, const AppState& state, const QuestionModel& q) {
    w.begin_object();
    w.key("index").integer(static_cast<long long>(q.index));
    w.key("total").integer(static_cast<long long>(q.total));
    w.key("id").string(q.id);
    w.key("type").string(q.type);
    w.key("quizTitle").string(q.quiz_title);
    w.key("counter").string(q.counter);
    w.key("position").string(q.position);
    w.key("progress").number(q.progress);
    w.key("prompt").string(q.prompt);
    write_rich(w, "promptRich", q.prompt_rich, state.math);
    w.key("instruction").string(q.instruction);
    w.key("multiple").boolean(q.multiple);
    w.key("choices").begin_array();
    for (const auto& choice : q.choices) {
        w.begin_object();
        w.key("id").string(choice.id);
        w.key("marker").string(choice.marker);
        w.key("text").string(choice.text);
        write_rich(w, "textRich", choice.text_rich, state.math);
        w.key("selected").boolean(choice.selected);
        w.key("correct");
        if (choice.correct) w.boolean(*choice.correct);
        else w.null();
        w.key("mark").string(mark_name(choice.mark));
        w.key("status").string(choice.status);
        w.key("enabled").boolean(choice.enabled);
        if (!choice.feedback.empty()) w.key("feedback").string(choice.feedback);
        write_rich(w, "feedbackRich", choice.feedback_rich, state.math);
        w.key("action");
        write_action(w, state, choice.action);
        w.end_object();
    }
    w.end_array();
    // Matching, ordering and cloze: one row per item (a blank).
    w.key("rows").begin_array();
    for (const auto& row : q.rows) {
        w.begin_object();
        w.key("id").string(row.id);
        w.key("text").string(row.text);
        write_rich(w, "textRich", row.text_rich, state.math);
        w.key("label").string(row.label);
        if (row.field.present) {  // cloze: a typed or numeric blank
            w.key("number").integer(static_cast<long long>(row.place));
            w.key("field");
            write_field(w, row.field);
        } else if (q.type == "matching" || q.type == "cloze") {
            if (q.type == "cloze") w.key("number").integer(static_cast<long long>(row.place));
            w.key("answer").string(row.answer_id);
            w.key("answerText").string(row.answer_text);
            w.key("options").begin_array();
            for (const auto& option : row.options) {
                w.begin_object();
                w.key("id").string(option.id);
                w.key("text").string(option.text);
                w.key("selected").boolean(option.selected);
                w.key("action");
                write_action(w, state, option.action);
                w.end_object();
            }
            w.end_array();
        } else {
            w.key("place").integer(static_cast<long long>(row.place));
            w.key("placeLabel").string(row.place_label);
            w.key("up");
            write_button(w, state, row.up);
            w.key("down");
            write_button(w, state, row.down);
        }
        w.key("correct");
        if (row.correct) w.boolean(*row.correct);
        else w.null();
        w.key("status").string(row.status);
        if (!row.feedback.empty()) w.key("feedback").string(row.feedback);
        w.end_object();
    }
    w.end_array();
    w.key("moved").string(q.moved);
    w.key("typed").string(q.field.value);
    w.key("field");
    if (q.field.present) {
        write_field(w, q.field);
        if (!q.field.unit.empty()) w.key("unit").string(q.field.unit);
    } else {
        w.null();
    }
    w.key("hints").begin_array();
    for (const HintModel& hint : q.hints) {
        w.begin_object();
        w.key("heading").string(hint.heading);
        w.key("text").string(hint.text);
        write_rich(w, "textRich", hint.text_rich, state.math);
        w.end_object();
    }
    w.end_array();
    w.key("hint");
    write_button(w, state, q.hint);
    w.key("tries").string(q.tries);
    w.key("tryAgain");
    if (q.try_again) {
        w.begin_object();
        w.key("verdict").string(q.try_again->word);
        w.key("tone").string(tone_name(q.try_again->tone));
        w.key("message").string(q.try_again->message);
        w.key("announcement").string(q.announcement);
        w.end_object();
    } else {
        w.null();
    }
    w.key("exam");
    if (q.exam) {
        const ExamModel& exam = *q.exam;
        w.begin_object();
        w.key("heading").string(exam.heading);
        w.key("answered").string(exam.answered);
        w.key("palette").begin_array();
        for (const PaletteItemModel& item : exam.palette) {
            w.begin_object();
            w.key("id").string(item.id);
            w.key("number").string(item.number);
            w.key("label").string(item.label);
            w.key("answered").boolean(item.answered);
            w.key("flagged").boolean(item.flagged);
            w.key("current").boolean(item.current);
            w.key("action");
            write_action(w, state, item.action);
            w.end_object();
        }
        w.end_array();
        w.key("previous");
        write_button(w, state, exam.previous);
        w.key("flag");
        write_button(w, state, exam.flag);
        w.key("flagged").boolean(exam.flagged);
        w.key("submit");
        write_button(w, state, exam.submit);
        w.key("unanswered").string(exam.unanswered);
        w.key("timeLeft").string(exam.time_left);
        w.key("timeLeftMs");
        if (exam.time_left_ms) w.integer(*exam.time_left_ms);
        else w.null();
        w.key("timeWarning").string(exam.time_warning);
        w.key("confirmation");
        if (exam.confirmation) {
            w.begin_object();
            w.key("question").string(exam.confirmation->question);
            w.key("confirm");
            write_button(w, state, exam.confirmation->confirm);
            w.key("cancel");
            write_button(w, state, exam.confirmation->cancel);
            w.end_object();
        } else {
            w.null();
        }
        w.end_object();
    } else {
        w.null();
    }
    w.key("back");
    write_button(w, state, q.back);
    w.key("primary");
    write_button(w, state, q.primary);
    w.key("shortcuts").string(q.shortcuts);
    if (q.checked) {
        w.key("feedback").begin_object();
        w.key("correct").boolean(q.verdict.correct);
        w.key("score").number(q.verdict.score);
        w.key("verdict").string(q.verdict.word);
        w.key("tone").string(tone_name(q.verdict.tone));
        w.key("correctAnswer").strings(q.correct_answers);
        w.key("correctAnswerLine").string(q.correct_answer_line);
        w.key("costs").string(q.costs);
        w.key("explanationHeading").string(q.explanation_heading);
        w.key("explanation").string(q.explanation);
        write_rich(w, "explanationRich", q.explanation_rich, state.math);
        w.key("announcement").string(q.announcement);
        w.end_object();
    }
    w.end_object();
}

void write_results(JsonWriter& w, const AppState& state, const ResultsModel& r) {
    w.begin_object();
    w.key("quizTitle").string(r.quiz_title);
    w.key("heading").string(r.heading);
    w.key("score").number(r.score);
    w.key("maxScore").number(r.max_score);
    w.key("percent").number(r.percent);
    w.key("passed").boolean(r.passed);
    w.key("passPercent").integer(r.pass_percent);
    w.key("durationMs").integer(r.duration_ms);
    w.key("missed").integer(static_cast<long long>(r.missed));
    w.key("percentText").string(r.percent_text);
    w.key("points").string(r.points);
    w.key("verdict").string(r.verdict);
    w.key("details").string(r.details);
    w.key("feedback").string(r.feedback);
    write_rich(w, "feedbackRich", r.feedback_rich, state.math);
    w.key("scoreOnly").string(r.score_only);
    w.key("buttons");
    write_buttons(w, state, r.buttons);
    w.key("questions").begin_array();
    for (const auto& row : r.rows) {
        w.begin_object();
        w.key("id").string(row.id);
        w.key("outcome").string(row.outcome);
        w.key("correct").boolean(row.correct);
        w.key("heading").string(row.heading);
        w.key("prompt").string(row.prompt);
        write_rich(w, "promptRich", row.prompt_rich, state.math);
        w.key("response");
        if (row.response) w.string(*row.response);
        else w.null();
        w.key("yourAnswer").string(row.your_answer_line);
        w.key("correctAnswer").strings(row.correct_answers);
        w.key("correctAnswerLine").string(row.correct_answer_line);
        w.key("costs").string(row.costs);
        w.key("explanation").string(row.explanation);
        write_rich(w, "explanationRich", row.explanation_rich, state.math);
        w.end_object();
    }
    w.end_array();
    w.key("showMore").string(r.show_more);
    w.key("scores");
    write_scores(w, r.scores);
    w.key("mastery");
    write_mastery(w, r.mastery);
    w.key("pastHeading").string(r.past_heading);
    w.key("pastAttempts").strings(r.past_attempts);
    w.key("announcement").string(r.announcement);
    w.end_object();
}

void write_settings(JsonWriter& w, const AppState& state, const SettingsModel& s) {
    w.begin_object();
    w.key("back");
    write_button(w, state, s.back);
    w.key("heading").string(s.heading);
    w.key("groups").begin_array();
    for (const auto& group : s.groups) {
        w.begin_object();
        w.key("id").string(group.id);
        w.key("legend").string(group.legend);
        w.key("options").begin_array();
        for (const auto& option : group.options) {
            w.begin_object();
            w.key("value").string(option.value);
            w.key("label").string(option.label);
            w.key("lang");
            if (option.language.empty()) w.null();
            else w.string(option.language);
            w.key("selected").boolean(option.selected);
            w.key("action");
            write_action(w, state, option.action);
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
    w.key("progressHeading").string(s.progress_heading);
    w.key("storageWarning").string(s.storage_warning);
    w.key("buttons");
    write_buttons(w, state, s.progress_buttons);
    w.key("deleteButtons");
    write_buttons(w, state, s.delete_buttons);
    w.key("confirmation");
    if (s.confirmation) {
        w.begin_object();
        w.key("question").string(s.confirmation->question);
        w.key("confirm");
        write_button(w, state, s.confirmation->confirm);
        w.key("cancel");
        write_button(w, state, s.confirmation->cancel);
        w.end_object();
    } else {
        w.null();
    }
    w.key("importMessage").string(s.import_message);
    w.end_object();
}

}  // namespace

Action action_from_page(const AppState& state, const std::string& text) {
    // The engine's own reader: it cannot throw (a throw would abort the whole wasm module) and
    // it is the one JSON parser in the wasm.
    JsonReadResult read = read_json(text, "page action", LoadLimits{});
    Action action;
    if (!read.document) return action;
    const JsonValue& message = read.document->root();
    auto field = [&](const char* name) -> std::string {
        const JsonValue* value = find_field(message, name);
        auto text_value = value ? as_string(*value) : std::nullopt;
        return text_value ? std::string(*text_value) : std::string();
    };
    std::string type = field("type");
    for (const auto& name : action_names)
        if (type == name.type) action.kind = name.kind;
    using Kind = Action::Kind;
    switch (action.kind) {
    case Kind::OpenQuiz:
    case Kind::StartOver:
    case Kind::ReviewDue:
    case Kind::RetryLoad:
    case Kind::DeleteProgress: {
        std::string quiz = field("quiz");
        for (std::size_t i = 0; i < state.banks.size(); ++i)
            if (state.banks[i].id == quiz) action.bank = static_cast<int>(i);
        if (action.bank < 0) action.kind = Kind::None;
        break;
    }
    case Kind::SelectChoice: action.choice_id = field("choice"); break;
    case Kind::SetTypedAnswer: action.text = field("text"); break;
    case Kind::MatchItem:
        action.choice_id = field("item");
        action.text = field("answer");
        break;
    case Kind::FillBlank:
        action.choice_id = field("blank");
        action.text = field("value");
        break;
    case Kind::MoveItem: {
        action.choice_id = field("item");
        const JsonValue* to = find_field(message, "to");
        auto place = to ? as_number(*to) : std::nullopt;
        if (!place || *place < 0) action.kind = Kind::None;
        else action.number = static_cast<float>(*place);
        break;
    }
    case Kind::GoToQuestion: {
        // 1-based, as the page shows it ("question": 3 is the third).
        const JsonValue* number = find_field(message, "question");
        auto place = number ? as_number(*number) : std::nullopt;
        if (!place || !(*place >= 1) || *place > 1e6) action.kind = Kind::None;
        else action.number = static_cast<float>(static_cast<long long>(*place) - 1);
        break;
    }
    case Kind::OpenPicture: action.text = field("source"); break;
    case Kind::SetLanguage:
        if (!language_from_code(field("value"), action.language)) action.kind = Kind::None;
        break;
    case Kind::SetTheme:
        if (!theme_from_name(field("value"), action.theme)) action.kind = Kind::None;
        break;
    case Kind::SetTextScale: {
        const JsonValue* value = find_field(message, "value");
        auto number = value ? as_number(*value) : std::nullopt;
        if (!number) action.kind = Kind::None;
        else action.number = static_cast<float>(*number);
        break;
    }
    default: break;
    }
    return action;
}

std::string action_to_page(const AppState& state, const Action& action) {
    JsonWriter w;
    write_action(w, state, action);
    return w.take();
}

std::string screen_to_page(const AppState& state, const ScreenModel& model) {
    JsonWriter w;
    w.begin_object();
    w.key("protocol").integer(page_protocol_version);
    w.key("screen").string(screen_name(model.screen));
    w.key("language").string(model.language);
    w.key("title").string(model.title);
    w.key("embed").boolean(model.embed);
    w.key("dark").boolean(model.dark);
    w.key("storagePersistent").boolean(model.storage_persistent);
    w.key("preferences").begin_object();
    w.key("theme").string(model.theme);
    w.key("textScale").number(model.text_scale);
    w.end_object();
    w.key("notice").string(model.notice ? model.notice->text : std::string());
    w.key("noticeDismiss");
    if (model.notice) write_button(w, state, model.notice->dismiss);
    else w.null();
    w.key("escape");
    write_action(w, state, model.escape);
    w.key("loading").string(model.loading);
    w.key("developmentBanner").string(model.development_banner);
    if (model.active_quiz_id) {
        w.key("quiz").begin_object();
        w.key("id").string(*model.active_quiz_id);
        w.key("title").string(*model.active_quiz_title);
        w.end_object();
    }
    const CatalogModel& catalog = model.catalog;
    w.key("catalog").begin_object();
    w.key("heading").string(catalog.heading);
    w.key("listLabel").string(catalog.list_label);
    w.key("settings");
    write_button(w, state, catalog.settings);
    w.key("errorTitle").string(catalog.error_title);
    w.key("error").string(catalog.error);
    w.key("empty").string(catalog.empty);
    w.key("notFoundTitle").string(catalog.not_found_title);
    w.key("notFound").string(catalog.not_found);
    if (catalog.review) {
        const ReviewAcrossModel& review = *catalog.review;
        w.key("review").begin_object();
        w.key("heading").string(review.heading);
        w.key("text").string(review.text);
        w.key("due").integer(static_cast<long long>(review.due));
        w.key("quizzes").integer(static_cast<long long>(review.quizzes));
        if (review.review) {
            w.key("button");
            write_button(w, state, *review.review);
        }
        w.end_object();
    }
    w.end_object();
    w.key("banks").begin_array();
    for (const auto& card : catalog.cards) write_card(w, state, card);
    w.end_array();
    if (!catalog.error.empty()) w.key("catalogError").string(catalog.error);
    if (!catalog.not_found.empty()) w.key("quizNotFound").string(state.wanted_quiz);
    if (model.question.present) {
        w.key("question");
        write_question(w, state, model.question);
    }
    if (model.results.present) {
        w.key("results");
        write_results(w, state, model.results);
    }
    if (model.screen == Screen::Settings) {
        w.key("settings");
        write_settings(w, state, model.settings);
    }
    if (!state.import_message.empty()) w.key("importMessage").string(state.import_message);
    if (rich_player && !model.pictures.empty()) {
        static const char* const states[] = {"loading", "ready", "failed"};
        w.key("pictures").begin_array();
        for (const PictureModel& picture : model.pictures) {
            w.begin_object();
            w.key("source").string(picture.source);
            w.key("url").string(picture.url);
            w.key("state").string(states[static_cast<int>(picture.state)]);
            w.key("width").integer(picture.width);
            w.key("height").integer(picture.height);
            if (!picture.problem.empty()) w.key("problem").string(picture.problem);
            w.end_object();
        }
        w.end_array();
        w.key("pictureNotShown").string(model.picture_not_shown);
    }
    if (rich_player && model.viewer) {
        w.key("viewer").begin_object();
        w.key("source").string(model.viewer->source);
        w.key("alt").string(model.viewer->alt);
        w.key("close");
        write_button(w, state, model.viewer->close);
        w.end_object();
    }
    w.end_object();
    return w.take();
}

std::string with_items(const std::string& document, const std::string& items_json) {
    if (document.empty() || document.back() != '}') return document;
    return document.substr(0, document.size() - 1) + ",\"items\":" + (items_json.empty() ? "[]" : items_json) + "}";
}

}  // namespace imquiz::app
