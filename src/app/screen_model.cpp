#include "app/screen_model.h"

#include "app/app.h"
#include "app/cloze_text.h"
#include "app/format.h"
#include "platform/platform.h"

#include "engine/draft.h"
#include "engine/mastery.h"
#include "engine/unicode.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace imquiz::app {

namespace {

// What every builder needs: the state, the interface language, the content language.
struct Context {
    const AppState& state;
    Language language;
    std::string content;  // language code for bank texts
    const char* str(Str id) const { return tr(language, id); }
    // Bank text as every rendering shows it: bidi overrides and invisible format characters
    // neutralized (engine/unicode.h), so the canvas, the mirror and the title agree.
    std::string text(const Bank& bank, const LocalizedText& t) const { return text_words(bank, t, content); }
    // ...and, in a Markdown bank, as blocks and runs (null in a plain bank), code coloured.
    bool* code_colours_pending = nullptr;
    RichTextRef rich(const Bank& bank, const LocalizedText& t) const {
        RichTextRef text = text_rich(bank, t, content);
        if (text && colour_code(*text)) *code_colours_pending = true;
        return text;
    }
    // Both, from one reading of the Markdown: the words are the blocks' words.
    void read(const Bank& bank, const LocalizedText& t, std::string& words, RichTextRef& rich_text) const {
        rich_text = rich(bank, t);
        words = rich_text ? plain_text(*rich_text) : text(bank, t);
    }
};

ButtonModel make_button(std::string id, std::string label, Action action, ButtonModel::Style style,
                        bool enabled = true, std::string accessible_name = {}) {
    ButtonModel button;
    button.id = std::move(id);
    button.label = std::move(label);
    button.accessible_name = std::move(accessible_name);
    button.action = std::move(action);
    button.enabled = enabled;
    button.style = style;
    return button;
}

Action bank_action(Action::Kind kind, std::size_t bank) {
    Action action = Action::of(kind);
    action.bank = static_cast<int>(bank);
    return action;
}

// A watched file saved with errors (live_reload.cpp): they are told over every screen, with the
// file and JSON path of each, while the last good version plays on; the first few only.
std::string reload_problems(const Context& c) {
    std::string text;
    if (c.state.reload_notice_dismissed) return text;
    constexpr std::size_t shown = 8;
    for (const BankSlot& slot : c.state.banks) {
        for (std::size_t i = 0; i < slot.reload_problems.size() && i < shown; ++i)
            text += "\n" + format_diagnostic(slot.reload_problems[i]);
        if (slot.reload_problems.size() > shown)
            text += "\n… (" + std::to_string(slot.reload_problems.size() - shown) + ")";
    }
    return text.empty() ? text : c.str(Str::ReloadProblems) + text;
}

std::optional<NoticeModel> notice(const Context& c) {
    const AppState& s = c.state;
    std::string problems = reload_problems(c);
    if (!problems.empty())
        return NoticeModel{problems, make_button("dismiss-notice", c.str(Str::Dismiss), Action::of(Action::Kind::DismissNotice),
                                                 ButtonModel::Style::Secondary)};
    const char* text = s.storage_notice_visible         ? c.str(Str::StorageUnavailable)
                       : s.write_failed_notice_visible   ? c.str(Str::StorageWriteFailed)
                       : s.newer_version_notice_visible ? c.str(Str::NewerVersionRecord)
                       : s.time_up_notice_visible       ? c.str(Str::TimeUp)
                                                         : nullptr;
    if (!text) return std::nullopt;
    return NoticeModel{text, make_button("dismiss-notice", c.str(Str::Dismiss), Action::of(Action::Kind::DismissNotice),
                                         ButtonModel::Style::Secondary)};
}

// ---- Catalog ----------------------------------------------------------------------------

CardModel card(const Context& c, const BankSlot& slot, std::size_t index) {
    CardModel card;
    card.key = slot.id.empty() ? slot.url : slot.id;
    card.url = slot.url;
    switch (slot.state) {
    case BankSlot::State::Loading:
        card.status = CardModel::Status::Loading;
        card.title = card.key;
        card.standing = c.str(Str::LoadingQuiz);
        break;
    case BankSlot::State::FetchFailed:
    case BankSlot::State::Invalid: {
        bool invalid = slot.state == BankSlot::State::Invalid;
        card.status = invalid ? CardModel::Status::Invalid : CardModel::Status::FetchFailed;
        card.title = c.str(invalid ? Str::InvalidBank : Str::CouldNotLoad);
        if (invalid) {
            // The first errors; quizc validate lists them all.
            for (const auto& d : slot.diagnostics)
                if (d.severity == Diagnostic::Severity::Error && card.problems.size() < 8)
                    card.problems.push_back(neutralize_for_display(format_diagnostic(d)));
        } else {
            card.problems.push_back(slot.fetch_error);
        }
        card.buttons.push_back(make_button("retry-load:" + card.key, c.str(Str::RetryLoad),
                                           bank_action(Action::Kind::RetryLoad, index), ButtonModel::Style::Secondary,
                                           true, std::string(c.str(Str::RetryLoad)) + ": " + slot.url));
        break;
    }
    case BankSlot::State::Ready: {
        const Bank& bank = *slot.bank;
        card.status = CardModel::Status::Ready;
        card.title = c.text(bank, bank.title);
        c.read(bank, bank.description, card.description, card.description_rich);
        // The bank plays; what MathJax refused (loading.cpp) is said here, as a broken bank's is.
        for (const auto& d : slot.diagnostics)
            if (d.severity == Diagnostic::Severity::Error && card.problems.size() < 8)
                card.problems.push_back(neutralize_for_display(format_diagnostic(d)));
        card.questions = slot.question_count;
        card.languages = bank.languages;
        std::string codes;
        for (std::string code : bank.languages) {
            for (char& ch : code) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
            codes += (codes.empty() ? "" : " ") + code;
        }
        card.meta = format_int(c.str(Str::QuestionsCount), static_cast<int>(slot.question_count)) + "  ·  " + codes;
        const auto& progress = slot.progress;
        card.attempts = attempt_count(progress);  // all of them: only the last 50 are kept in full
        card.best_percent = progress.best_percent;
        card.in_progress = progress.attempt_in_progress.has_value();
        if (progress.best_percent) {
            card.has_best = true;
            // A whole percent, as the format has it, but no "100%" for an attempt that missed one.
            const long best = std::lround(*progress.best_percent);
            card.standing = format_int(c.str(Str::BestScore), static_cast<int>(best >= 100 && *progress.best_percent < 100 ? 99 : best));
        } else if (card.in_progress) {
            const Session& attempt = *progress.attempt_in_progress;
            card.standing = format_int2(c.str(Str::InProgress), static_cast<int>(answered_count(attempt)),
                                        static_cast<int>(attempt.questions.size()));
        } else {
            card.standing = c.str(Str::NotTakenYet);
        }
        // An exam's limit is said before the first attempt, as well as after each.
        const std::optional<ExamAttempts> attempts = exam_attempts(slot);
        const bool used_up = attempts && attempts->left() == 0 && !card.in_progress;
        if (attempts)
            card.standing += "  ·  " + (used_up ? std::string(c.str(Str::NoAttemptsLeft))
                                                : format_int2(c.str(Str::AttemptsLeft), attempts->left(), attempts->allowed));
        // "Start" twice on one page says nothing: the quiz title completes each button's name.
        std::string open = c.str(card.in_progress ? Str::Continue : used_up ? Str::SeeResults : Str::Start);
        card.buttons.push_back(make_button("open:" + slot.id, open, bank_action(Action::Kind::OpenQuiz, index),
                                           ButtonModel::Style::Primary, true, open + ": " + card.title));
        // Due for review: said in the standing, and a round a button away.
        const std::vector<std::string> due = due_questions(slot);
        card.due = due.size();
        if (!due.empty()) {
            card.standing += "  ·  " + format_int(c.str(Str::DueForReview), static_cast<int>(due.size()));
            const std::string review = format_int(c.str(Str::ReviewDue), static_cast<int>(std::min(due.size(), review_round_size)));
            card.buttons.push_back(make_button("review-due:" + slot.id, review, bank_action(Action::Kind::ReviewDue, index),
                                               ButtonModel::Style::Secondary, true, review + ": " + card.title));
        }
        // Nothing due: when the next question will be (the schedule of a practice quiz only).
        const bool practice = bank.settings.mode != Settings::Mode::Exam;
        if (due.empty() && practice && !card.in_progress) card.next_review_ms = next_review_ms(progress, bank);
        if (card.next_review_ms) card.standing += "  ·  " + format_text(c.str(Str::NextReview), format_date(*card.next_review_ms));
        const Mastery mastery = bank_mastery(progress, bank, platform::now_ms());
        if (mastery.seen > 0)
            card.progress = CardProgressModel{mastery.questions, mastery.seen, mastery.right,
                                              format_int2(c.str(Str::RightOfTotal), mastery.right, mastery.questions)};
        // Starting a limited exam over would be an attempt never counted (open_quiz refuses it).
        if (card.in_progress && !attempts)
            card.buttons.push_back(make_button("start-over:" + slot.id, c.str(Str::StartOver),
                                               bank_action(Action::Kind::StartOver, index),
                                               ButtonModel::Style::Secondary, true,
                                               std::string(c.str(Str::StartOver)) + ": " + card.title));
        break;
    }
    }
    return card;
}

// With one quiz, its card says it all; with more, the cards' due counts add up here.
std::optional<ReviewAcrossModel> review_across(const Context& c, const std::vector<CardModel>& cards) {
    ReviewAcrossModel model;
    std::optional<std::int64_t> next;
    for (const CardModel& card_model : cards) {
        model.due += card_model.due;
        model.quizzes += card_model.due > 0 ? 1 : 0;
        if (card_model.next_review_ms) next = next ? std::min(*next, *card_model.next_review_ms) : *card_model.next_review_ms;
    }
    if (model.due == 0 && !next) return std::nullopt;   // nothing answered yet: nothing to say
    model.heading = c.str(Str::ReviewHeading);
    if (model.due > 0) {
        model.text = format_int(c.str(Str::DueAcross), static_cast<int>(model.due));
        const std::string label = format_int(c.str(Str::ReviewAll), static_cast<int>(std::min(model.due, review_round_size)));
        model.review = make_button("review-all", label, Action::of(Action::Kind::ReviewAll), ButtonModel::Style::Primary);
    } else {
        model.text = std::string(c.str(Str::NothingDue)) + " " + format_text(c.str(Str::NextReview), format_date(*next));
    }
    return model;
}

CatalogModel catalog(const Context& c) {
    const AppState& s = c.state;
    CatalogModel model;
    model.heading = c.str(Str::AppName);
    model.list_label = c.str(Str::Catalog);
    model.settings = make_button("settings", c.str(Str::Settings), Action::of(Action::Kind::OpenSettings),
                                 ButtonModel::Style::Quiet);
    if (!s.catalog_error.empty()) {
        model.error_title = c.str(Str::CouldNotLoad);
        model.error = neutralize_for_display(s.catalog_error);
        while (!model.error.empty() && model.error.back() == '\n') model.error.pop_back();
    } else if (s.banks.empty() && s.catalog_loaded) {
        model.empty = c.str(Str::CatalogEmpty);
    }
    if (!s.wanted_quiz.empty() && s.opened_wanted_quiz && s.active_bank < 0 &&
        std::none_of(s.banks.begin(), s.banks.end(), [&](const BankSlot& slot) { return slot.id == s.wanted_quiz; })) {
        model.not_found_title = c.str(Str::QuizNotFound);
        model.not_found = "quiz=" + s.wanted_quiz;
    }
    for (std::size_t i = 0; i < s.banks.size(); ++i) model.cards.push_back(card(c, s.banks[i], i));
    if (model.cards.size() >= 2) model.review = review_across(c, model.cards);
    return model;
}

// ---- Question ---------------------------------------------------------------------------

ChoiceMark mark_of(bool checked, bool selected, bool correct) {
    if (!checked) return selected ? ChoiceMark::Selected : ChoiceMark::Normal;
    if (correct) return selected ? ChoiceMark::Correct : ChoiceMark::CorrectMissed;
    return selected ? ChoiceMark::Wrong : ChoiceMark::Locked;
}

std::string status_of(const Context& c, ChoiceMark mark) {
    switch (mark) {
    case ChoiceMark::Correct: return std::string(c.str(Str::YourAnswer)) + " · " + c.str(Str::Correct);
    case ChoiceMark::CorrectMissed: return c.str(Str::CorrectAnswer);
    case ChoiceMark::Wrong: return std::string(c.str(Str::YourAnswer)) + " · " + c.str(Str::Incorrect);
    default: return {};
    }
}

std::string marker_of(std::size_t i) {
    return i < 9 ? std::to_string(i + 1) : std::string(1, static_cast<char>('a' + (i - 9) % 26));
}

// "Hints used: 1 · Tries: 2 · Points: 0.5 of 1": what hints and tries cost a question.
std::string costs_line(const Context& c, std::size_t hints, int tries, double score) {
    std::string points = c.str(Str::PointsOfOne);
    const std::size_t at = points.find("%s");
    if (at != std::string::npos) points.replace(at, 2, format_points(score));
    return format_int2(c.str(Str::HintsAndTries), static_cast<int>(hints), tries) + " · " + points;
}

// The last try that was not right, while the answer is still as it was tried: an edit hides what
// was said about it.
const Feedback* standing_try(const AppState& s, const Question& question) {
    if (!s.tried || s.feedback) return nullptr;
    return draft_response(s.draft, question) == s.tried->response ? &s.tried->feedback : nullptr;
}

std::vector<ChoiceModel> choices(const Context& c, const Bank& bank, const Question& question,
                                 const SessionQuestion& slot) {
    const AppState& s = c.state;
    bool checked = s.feedback.has_value();
    std::vector<ChoiceModel> out;
    auto add = [&](std::string id, std::string text, bool correct, bool selected, std::string feedback) {
        ChoiceModel choice;
        choice.marker = marker_of(out.size());
        choice.action = Action::of(Action::Kind::SelectChoice);
        choice.action.choice_id = id;
        choice.id = std::move(id);
        choice.text = std::move(text);
        choice.selected = selected;
        choice.mark = mark_of(checked, selected, correct);
        choice.status = status_of(c, choice.mark);
        choice.enabled = !checked;
        if (checked) choice.correct = correct;
        choice.feedback = std::move(feedback);  // only once checked, or on a try's picks
        out.push_back(std::move(choice));
    };
    if (question.type == QuestionType::TrueFalse) {
        bool given_true = is_selected(s.draft, "true"), given_false = is_selected(s.draft, "false");
        if (checked && slot.answer) {
            given_true = slot.answer->response.true_false;
            given_false = !given_true;
        }
        add("true", c.str(Str::TrueLabel), question.true_false_answer, given_true, {});
        add("false", c.str(Str::FalseLabel), !question.true_false_answer, given_false, {});
        return out;
    }
    for (const Choice* choice : choices_in_order(slot, question)) {
        bool selected = is_selected(s.draft, choice->id);
        std::string feedback;
        RichTextRef feedback_rich;
        const Feedback* told = checked ? &*s.feedback : standing_try(s, question);
        if (told) {
            for (const auto& f : told->choices) {
                if (f.choice_id != choice->id) continue;
                selected = f.selected;
                if (!f.feedback.empty()) {
                    c.read(bank, f.feedback, feedback, feedback_rich);
                }
            }
        }
        std::string text;
        RichTextRef text_rich;
        c.read(bank, choice->text, text, text_rich);
        add(choice->id, std::move(text), choice->correct, selected, std::move(feedback));
        out.back().text_rich = std::move(text_rich);
        out.back().feedback_rich = std::move(feedback_rich);
    }
    return out;
}

// A select's options (a matching item's answers, a cloze blank's choices): first the empty pick,
// then each choice, every one with the action `kind` that picks it for `row_id`.
std::vector<RowOptionModel> pick_options(const Context& c, const Bank& bank, Action::Kind kind, const std::string& row_id,
                                         const std::string& picked, const std::vector<const Choice*>& choices) {
    std::vector<RowOptionModel> options;
    auto option = [&](std::string id, std::string text) {
        RowOptionModel o;
        o.action = Action::of(kind);
        o.action.choice_id = row_id;
        o.action.text = id;
        o.selected = id == picked;
        o.id = std::move(id);
        o.text = std::move(text);
        options.push_back(std::move(o));
    };
    option("", c.str(Str::ChooseAnswer));
    for (const Choice* choice : choices) option(choice->id, c.text(bank, choice->text));
    return options;
}

// Matching: a row per item, its pick out of the answers (in the attempt's shuffled order).
std::vector<RowModel> matching_rows(const Context& c, const Bank& bank, const Question& question,
                                    const SessionQuestion& slot, std::string& moved) {
    const AppState& s = c.state;
    const bool checked = s.feedback.has_value();
    std::vector<const Choice*> answers = choices_in_order(slot, question);
    auto answer_text = [&](const std::string& id) {
        const Choice* answer = question.find_choice(id);
        return answer ? c.text(bank, answer->text) : std::string();
    };
    std::vector<RowModel> rows;
    for (const MatchItem& item : question.match_items) {
        RowModel row;
        row.id = item.id;
        c.read(bank, item.text, row.text, row.text_rich);
        row.label = row.text;
        const PartFeedback* part = nullptr;
        if (checked)
            for (const PartFeedback& p : s.feedback->parts)
                if (p.id == item.id) part = &p;
        row.answer_id = part ? part->given : matched_answer(s.draft, item.id);
        row.answer_text = row.answer_id.empty() ? c.str(checked ? Str::Unpaired : Str::ChooseAnswer) : answer_text(row.answer_id);
        if (!checked) row.options = pick_options(c, bank, Action::Kind::MatchItem, item.id, row.answer_id, answers);
        if (part) {
            row.correct = part->correct;
            row.status = part->correct ? std::string(c.str(Str::Correct))
                                       : std::string(c.str(Str::Incorrect)) + " · " + c.str(Str::RightAnswerIs) + " " +
                                             answer_text(item.answer_id);
            if (!part->feedback.empty()) row.feedback = c.text(bank, part->feedback);
        }
        if (!checked && s.last_move == item.id)
            moved = row.text + ": " + (row.answer_id.empty() ? std::string(c.str(Str::Unpaired))
                                                            : std::string(c.str(Str::PairedWith)) + " " + row.answer_text) + ".";
        rows.push_back(std::move(row));
    }
    return rows;
}

// Ordering: a row per item at its place (the draft's order, or the answer once checked).
std::vector<RowModel> ordering_rows(const Context& c, const Bank& bank, const Question& question,
                                    const SessionQuestion& slot, std::string& moved) {
    const AppState& s = c.state;
    const bool checked = s.feedback.has_value() && slot.answer;
    const std::vector<std::string>& order = checked ? slot.answer->response.choice_ids : s.draft.order;
    const int total = static_cast<int>(order.size());
    std::vector<RowModel> rows;
    for (int i = 0; i < total; ++i) {
        const Choice* item = question.find_choice(order[static_cast<std::size_t>(i)]);
        if (!item) continue;
        RowModel row;
        row.id = item->id;
        c.read(bank, item->text, row.text, row.text_rich);
        row.place = static_cast<std::size_t>(i + 1);
        row.place_label = format_int2(c.str(Str::PlaceOf), i + 1, total);
        row.label = row.place_label + ": " + row.text;
        auto move = [&](const char* prefix, Str label, int to) {
            Action action = Action::of(Action::Kind::MoveItem);
            action.choice_id = item->id;
            action.number = static_cast<float>(to);
            return make_button(std::string(prefix) + item->id, c.str(label), action, ButtonModel::Style::Secondary, true,
                               std::string(c.str(label)) + ": " + row.text);
        };
        if (!checked && i > 0) row.up = move("up:", Str::MoveUp, i - 1);
        if (!checked && i + 1 < total) row.down = move("down:", Str::MoveDown, i + 1);
        if (checked) {
            int right = 0;
            while (right < static_cast<int>(question.choices.size()) && question.choices[static_cast<std::size_t>(right)].id != item->id)
                ++right;
            row.correct = right == i;
            row.status = right == i ? std::string(c.str(Str::Correct)) : format_int(c.str(Str::RightPlaceIs), right + 1);
        }
        if (!checked && s.last_move == item->id) moved = row.text + ": " + format_int2(c.str(Str::MovedTo), i + 1, total) + ".";
        rows.push_back(std::move(row));
    }
    return rows;
}

// Cloze: a row per blank, in the order the prompt shows them: a select of its choices (in the
// attempt's order), or a field for what is typed.
std::vector<RowModel> cloze_rows(const Context& c, const Bank& bank, const Question& question,
                                 const SessionQuestion& slot, std::string& moved) {
    const AppState& s = c.state;
    const bool checked = s.feedback.has_value();
    const std::vector<const Blank*> blanks = blanks_in_prompt_order(bank, question, c.content);
    const int total = static_cast<int>(blanks.size());
    std::vector<RowModel> rows;
    for (int i = 0; i < total; ++i) {
        const Blank& blank = *blanks[static_cast<std::size_t>(i)];
        RowModel row;
        row.id = blank.id;
        row.text = format_int(c.str(Str::BlankNumber), i + 1);
        row.label = format_int2(c.str(Str::BlankOf), i + 1, total);
        row.place = static_cast<std::size_t>(i + 1);
        const PartFeedback* part = nullptr;
        if (checked)
            for (const PartFeedback& p : s.feedback->parts)
                if (p.id == blank.id) part = &p;
        const std::string given = part ? part->given : matched_answer(s.draft, blank.id);
        auto option_text = [&](const std::string& id) {
            const Choice* option = blank.find_option(id);
            return option ? c.text(bank, option->text) : std::string();
        };
        if (blank.kind == Blank::Kind::Options) {
            row.answer_id = given;
            row.answer_text = given.empty() ? std::string(c.str(Str::ChooseAnswer)) : option_text(given);
            if (!checked)
                row.options = pick_options(c, bank, Action::Kind::FillBlank, blank.id, row.answer_id, options_in_order(slot, blank));
        } else {
            AnswerFieldModel& field = row.field;
            field.present = true;
            field.numeric = blank.kind == Blank::Kind::Numeric;
            field.label = c.str(field.numeric ? Str::TypeNumber : Str::TypeAnswer);
            field.value = given;
            if (!blank.unit.empty()) field.unit = c.text(bank, blank.unit);
            field.read_only = checked;
            if (!checked && s.draft.refused == InputProblem::NotANumber && blank_input_problem(blank, given) == InputProblem::NotANumber)
                field.problem = c.str(Str::NotANumber);
        }
        if (part) {
            row.correct = part->correct;
            std::string right;
            if (blank.kind == Blank::Kind::Options) {
                const Choice* option = blank.correct_option();
                right = option ? c.text(bank, option->text) : std::string();
            } else if (blank.kind == Blank::Kind::Numeric) {
                right = format_numeric_answer(blank.numeric_answer);
            } else if (!blank.accepted_texts.empty()) {
                right = neutralize_for_display(bank.text(blank.accepted_texts.front(), c.content));
            }
            row.status = part->correct ? std::string(c.str(Str::Correct))
                                       : std::string(c.str(Str::Incorrect)) + " · " + c.str(Str::RightAnswerIs) + " " + right;
            // The choice picked says its own feedback first, then the blank's.
            std::vector<std::string> feedback;
            if (const Choice* picked = blank.kind == Blank::Kind::Options ? blank.find_option(part->given) : nullptr)
                if (!picked->feedback.empty()) feedback.push_back(as_sentence(c.text(bank, picked->feedback)));
            if (!part->feedback.empty()) feedback.push_back(c.text(bank, part->feedback));
            row.feedback = join(feedback, " ");
        }
        if (!checked && s.last_move == blank.id && blank.kind == Blank::Kind::Options)
            moved = row.label + ": " + (given.empty() ? std::string(c.str(Str::ChooseAnswer)) : option_text(given)) + ".";
        rows.push_back(std::move(row));
    }
    return rows;
}

// A cloze prompt with its blanks as numbered gaps, each showing what fills it (as checked, once
// checked).
LocalizedText cloze_passage(const Context& c, const Bank& bank, const Question& question) {
    const AppState& s = c.state;
    const bool checked = s.feedback.has_value();
    return cloze_prompt(bank, question, c.content, [&](const Blank& blank, int number) {
        std::string given = matched_answer(s.draft, blank.id);
        if (checked)
            for (const PartFeedback& p : s.feedback->parts)
                if (p.id == blank.id) given = p.given;
        if (given.empty()) return empty_gap(number);
        if (blank.kind == Blank::Kind::Options) {
            const Choice* option = blank.find_option(given);
            return option ? filled_gap(number, text_words(bank, option->text, c.content)) : empty_gap(number);
        }
        return filled_gap(number, given);
    });
}

// An exam's palette, flag, previous and submit, and the confirmation while it is asked.
ExamModel exam(const Context& c, const Session& session) {
    const AppState& s = c.state;
    ExamModel model;
    model.heading = c.str(Str::ExamQuestions);
    const int total = static_cast<int>(session.questions.size());
    int answered = 0;
    std::vector<std::string> unanswered;
    for (int i = 0; i < total; ++i) {
        const SessionQuestion& slot = session.questions[static_cast<std::size_t>(i)];
        PaletteItemModel item;
        item.number = std::to_string(i + 1);
        item.id = "question:" + item.number;
        item.answered = slot.answer.has_value();
        item.flagged = slot.flagged;
        item.current = static_cast<std::size_t>(i) == session.current;
        std::vector<std::string> states = {c.str(item.answered ? Str::PaletteAnswered : Str::PaletteNotAnswered)};
        if (item.flagged) states.push_back(c.str(Str::PaletteFlagged));
        if (item.current) states.push_back(c.str(Str::PaletteCurrent));
        item.label = format_int2(c.str(Str::QuestionOf), i + 1, total) + ": " + join(states, ", ");
        item.action = Action::of(Action::Kind::GoToQuestion);
        item.action.number = static_cast<float>(i);
        if (item.answered) ++answered;
        else unanswered.push_back(item.number);
        model.palette.push_back(std::move(item));
    }
    model.answered = format_int2(c.str(Str::ExamAnswered), answered, total);
    if (const Bank* bank = s.active()) {
        if (auto left = exam_time_left_ms(session, *bank, static_cast<std::int64_t>(platform::now_ms()))) {
            model.time_left_ms = *left;
            std::string words = c.str(Str::TimeLeft);
            // Whole seconds left, rounded down: "0:59" is less than a minute, as its warning says.
            words.replace(words.find("%s"), 2, format_duration(*left / 1000 * 1000));
            model.time_left = words;
            if (*left < 60'000) model.time_warning = c.str(Str::MinuteLeftWarning);
            else if (*left < 5 * 60'000) model.time_warning = format_int(c.str(Str::MinutesLeftWarning), 5);
        }
    }
    const bool asking = s.confirming_submit;
    if (session.current > 0)
        model.previous = make_button("previous", c.str(Str::PreviousQuestion), Action::of(Action::Kind::PreviousQuestion),
                                     ButtonModel::Style::Secondary, !asking);
    model.flagged = session.current < session.questions.size() && session.questions[session.current].flagged;
    model.flag = make_button("flag", c.str(model.flagged ? Str::UnflagQuestion : Str::FlagQuestion),
                             Action::of(Action::Kind::ToggleFlag), ButtonModel::Style::Secondary, !asking);
    model.submit = make_button("submit", c.str(Str::SubmitAnswers), Action::of(Action::Kind::Submit),
                               ButtonModel::Style::Secondary, !asking);
    if (unanswered.empty()) {
        model.unanswered = c.str(Str::AllAnswered);
    } else {
        model.unanswered = format_text(c.str(Str::UnansweredList), join(unanswered, ", "));
    }
    if (asking) {
        ConfirmationModel confirmation;
        confirmation.question = c.str(Str::ConfirmSubmit);
        confirmation.confirm = make_button("confirm-submit", c.str(Str::SubmitNow), Action::of(Action::Kind::ConfirmSubmit),
                                           ButtonModel::Style::Primary);
        confirmation.cancel = make_button("cancel-submit", c.str(Str::KeepAnswering), Action::of(Action::Kind::CancelSubmit),
                                          ButtonModel::Style::Secondary);
        model.confirmation = std::move(confirmation);
    }
    return model;
}

QuestionModel question(const Context& c) {
    const AppState& s = c.state;
    QuestionModel model;
    const Bank* bank = s.active();
    if (!bank || !s.session) return model;
    const Session& session = *s.session;
    const Question* q = current_question(session, *bank);
    if (!q) return model;
    const SessionQuestion& slot = session.questions[session.current];
    bool checked = s.feedback.has_value();
    bool is_choice = q->type == QuestionType::SingleChoice || q->type == QuestionType::MultipleChoice ||
                     q->type == QuestionType::TrueFalse;

    model.present = true;
    model.quiz_title = c.text(*bank, bank->title);
    model.index = session.current + 1;
    model.total = session.questions.size();
    model.counter = std::to_string(model.index) + " / " + std::to_string(model.total);
    model.position = format_int2(c.str(Str::QuestionOf), static_cast<int>(model.index), static_cast<int>(model.total));
    model.progress = static_cast<float>(session.current + (checked ? 1 : 0)) /
                     static_cast<float>(std::max<std::size_t>(1, model.total));
    model.id = q->id;
    model.type = std::string(to_string(q->type));
    c.read(*bank, q->type == QuestionType::Cloze ? cloze_passage(c, *bank, *q) : q->prompt, model.prompt, model.prompt_rich);
    model.multiple = q->type == QuestionType::MultipleChoice;
    if (is_choice) {
        model.choices = choices(c, *bank, *q, slot);
        if (!checked) model.instruction = c.str(model.multiple ? Str::SelectAll : Str::SelectOne);
    } else if (q->type == QuestionType::Matching) {
        model.rows = matching_rows(c, *bank, *q, slot, model.moved);
        if (!checked) model.instruction = c.str(Str::MatchInstruction);
    } else if (q->type == QuestionType::Ordering) {
        model.rows = ordering_rows(c, *bank, *q, slot, model.moved);
        if (!checked) model.instruction = c.str(Str::OrderInstruction);
    } else if (q->type == QuestionType::Cloze) {
        model.rows = cloze_rows(c, *bank, *q, slot, model.moved);
        if (!checked) model.instruction = c.str(Str::ClozeInstruction);
    } else {
        AnswerFieldModel& field = model.field;
        field.present = true;
        field.numeric = q->type == QuestionType::Numeric;
        field.label = c.str(field.numeric ? Str::TypeNumber : Str::TypeAnswer);
        // What the learner typed stays as typed in the field they edit (the page's input holds it).
        field.value = checked && slot.answer ? slot.answer->response.text : s.draft.typed;
        if (!q->unit.empty()) field.unit = c.text(*bank, q->unit);
        field.read_only = checked;
        if (!checked && s.draft.refused == InputProblem::NotANumber) field.problem = c.str(Str::NotANumber);
    }
    // Hints, revealed one at a time; tries, and what the last one that was not right is told.
    for (std::size_t i = 0; i < slot.hints_shown && i < q->hints.size(); ++i) {
        HintModel hint;
        hint.heading = format_int2(c.str(Str::HintOf), static_cast<int>(i + 1), static_cast<int>(q->hints.size()));
        c.read(*bank, q->hints[i].text, hint.text, hint.text_rich);
        model.hints.push_back(std::move(hint));
    }
    if (!checked && slot.hints_shown < q->hints.size()) {
        const int number = static_cast<int>(slot.hints_shown) + 1, count = static_cast<int>(q->hints.size());
        const double cost = q->hints[slot.hints_shown].cost;
        std::string label = std::string(c.str(Str::ShowHint)) + " (" + std::to_string(number) + "/" + std::to_string(count) + ")";
        std::string name = format_int2(c.str(Str::HintOf), number, count);
        if (cost > 0) {
            const int percent = static_cast<int>(std::lround(cost * 100));
            label += " · -" + std::to_string(percent) + "%";   // Noto Sans has no minus sign (U+2212)
            name += ", " + format_int(c.str(Str::HintCost), percent);
        }
        // The spoken name starts with the visible label (WCAG 2.5.3), then says it in words.
        model.hint = make_button("hint", label, Action::of(Action::Kind::ShowHint), ButtonModel::Style::Secondary, true,
                                 label + ". " + name);
    }
    const int allowed = max_tries(*bank, *q);
    const int tries_made = static_cast<int>(slot.wrong_tries.size());
    if (allowed > 1)
        model.tries = format_int2(c.str(Str::TryOf), checked ? tries_made + 1 : std::min(allowed, tries_made + 1), allowed);
    if (const Feedback* tried = standing_try(s, *q)) {
        TryAgainModel again;
        again.tone = tried->before_costs > 0 ? VerdictModel::Tone::Partial : VerdictModel::Tone::Wrong;
        again.word = c.str(tried->before_costs > 0 ? Str::PartlyCorrect : Str::NotRightYet);
        again.message = format_int(c.str(Str::TriesLeft), tried->tries_left);
        std::vector<std::string> parts = {as_sentence(again.word)};
        for (const auto& choice : model.choices)
            if (choice.selected && !choice.feedback.empty()) parts.push_back(as_sentence(choice.feedback));
        parts.push_back(again.message);
        model.announcement = join(parts, " ");
        model.try_again = std::move(again);
    }
    if (bank->settings.mode == Settings::Mode::Exam) {
        model.exam = exam(c, session);
        // An exam's bar is how much is answered: its questions are taken in any order.
        model.progress = static_cast<float>(answered_count(session)) / static_cast<float>(std::max<std::size_t>(1, model.total));
    }
    model.checked = checked;
    if (!s.embed)
        model.back = make_button("back", c.str(Str::Back), Action::of(Action::Kind::BackToCatalog), ButtonModel::Style::Quiet);
    if (checked) {
        const Feedback& feedback = *s.feedback;
        VerdictModel& verdict = model.verdict;
        verdict.correct = feedback.correct;
        verdict.score = feedback.score;
        verdict.tone = feedback.correct ? VerdictModel::Tone::Correct
                       : feedback.score > 0 ? VerdictModel::Tone::Partial
                                            : VerdictModel::Tone::Wrong;
        verdict.word = c.str(feedback.correct ? Str::Correct : feedback.score > 0 ? Str::PartlyCorrect : Str::Incorrect);
        model.correct_answers = correct_answer_texts(*bank, *q, feedback.correct_answer, c.content, c.language);
        // Choice cards mark the right answer themselves; said in words too when the learner
        // missed it, and always for typed answers (nothing else shows what was expected).
        // Rows mark their own right and wrong, as choice cards do.
        if ((!is_choice && model.rows.empty()) || !feedback.correct)
            model.correct_answer_line = std::string(c.str(Str::CorrectAnswer)) + ": " + join(model.correct_answers, "; ");
        if (feedback.hints_used > 0 || feedback.try_number > 1)
            model.costs = costs_line(c, feedback.hints_used, feedback.try_number, feedback.score);
        c.read(*bank, feedback.explanation, model.explanation, model.explanation_rich);
        if (!model.explanation.empty()) model.explanation_heading = c.str(Str::Explanation);
        std::vector<std::string> parts = {as_sentence(verdict.word)};
        for (const auto& choice : model.choices)
            if (choice.selected && !choice.feedback.empty()) parts.push_back(as_sentence(choice.feedback));
        for (const auto& row : model.rows)
            if (!row.feedback.empty()) parts.push_back(as_sentence(row.feedback));
        if (!model.correct_answer_line.empty()) parts.push_back(as_sentence(model.correct_answer_line));
        if (!model.costs.empty()) parts.push_back(as_sentence(model.costs));
        if (!model.explanation.empty()) parts.push_back(as_sentence(model.explanation));
        model.announcement = join(parts, " ");
        bool last = session.current + 1 >= session.questions.size();
        model.primary = make_button("next", c.str(last ? Str::SeeResults : Str::Next), Action::of(Action::Kind::Next),
                                    ButtonModel::Style::Primary);
    } else if (model.exam) {
        // No Check: the answer is kept as it is given. Next, or on the last question, Submit.
        const bool last = session.current + 1 >= session.questions.size();
        model.primary = last ? model.exam->submit : make_button("next", c.str(Str::Next), Action::of(Action::Kind::Next),
                                                                ButtonModel::Style::Primary);
        if (last) model.primary.id = "finish";   // the same action as the exam's own Submit, another place
        model.primary.style = ButtonModel::Style::Primary;
        model.primary.enabled = !model.exam->confirmation;
    } else {
        model.primary = make_button("check", c.str(Str::Check), Action::of(Action::Kind::Check),
                                    ButtonModel::Style::Primary, can_check(s.draft, *q));
    }
    model.shortcuts = c.str(model.exam ? Str::ExamShortcutsHint
                            : model.rows.empty() || checked ? Str::ShortcutsHint
                            : q->type == QuestionType::Matching ? Str::MatchShortcutsHint
                            : q->type == QuestionType::Cloze    ? Str::ClozeShortcutsHint
                                                                : Str::OrderShortcutsHint);
    return model;
}

// ---- Results ----------------------------------------------------------------------------

// Which of the bank's counted attempts these results are (1 the first); the count when they are
// not among them.
int attempt_number(const BankSlot& slot, const Results& r) {
    int number = 0;
    for (const FinishedAttempt& attempt : slot.progress.finished_attempts) {
        if (attempt.bank_fingerprint != slot.fingerprint) continue;
        ++number;
        if (attempt.attempt_id == r.attempt_id) return number;
    }
    return number;
}

// The last ten attempts' scores, oldest first, numbered among every attempt at the quiz. Review
// rounds are not scores of the quiz: they keep their numbers but have no bar.
ScoreChartModel score_chart(const Context& c, const BankSlot& slot, const Results& r) {
    ScoreChartModel chart;
    const auto& finished = slot.progress.finished_attempts;
    std::vector<std::size_t> shown;
    for (std::size_t i = 0; i < finished.size(); ++i)
        if (!finished[i].review) shown.push_back(i);
    if (shown.size() < 2) return chart;   // one bar is not a trend: the score card says it
    if (shown.size() > 10) shown.erase(shown.begin(), shown.end() - 10);
    chart.heading = c.str(Str::ScoresHeading);
    chart.pass_percent = r.pass_percent;
    chart.pass_line = format_int(c.str(Str::PassMark), r.pass_percent);
    chart.table.caption = chart.heading + ". " + chart.pass_line;
    chart.table.columns = {c.str(Str::ColumnAttempt), c.str(Str::ColumnDate), c.str(Str::ColumnScore),
                           c.str(Str::ColumnOutcome)};
    for (const std::size_t i : shown) {
        const FinishedAttempt& attempt = finished[i];
        ScoreBarModel bar;
        bar.percent = attempt.percent;
        bar.passed = attempt.passed;
        bar.current = attempt.attempt_id == r.attempt_id;
        bar.label = std::to_string(slot.progress.earlier_attempts + static_cast<int>(i) + 1);
        // As on the score card: a score just under the pass mark is not rounded up to it.
        bar.value = format_percent(attempt.percent, attempt.passed ? std::nullopt : std::optional<double>(r.pass_percent));
        chart.table.rows.push_back({bar.label, format_date(attempt.finished_at_ms), bar.value,
                                    c.str(attempt.passed ? Str::Passed : Str::NotPassed)});
        chart.bars.push_back(std::move(bar));
    }
    return chart;
}

// Of each tag's questions: seen, right at least once, due now (engine/mastery.h).
MasteryModel mastery_bars(const Context& c, const BankSlot& slot) {
    MasteryModel model;
    const std::vector<Mastery> tags = mastery_by_tag(slot.progress, *slot.bank, platform::now_ms());
    model.heading = c.str(Str::MasteryHeading);
    model.table.caption = model.heading;
    model.table.columns = {c.str(Str::ColumnTopic), c.str(Str::ColumnQuestions), c.str(Str::ColumnSeen),
                           c.str(Str::ColumnRight), c.str(Str::ColumnDue)};
    for (const Mastery& tag : tags) {
        MasteryBarModel bar;
        // Tags are the author's words (ids, in no language): shown as written, made safe.
        bar.topic = !tag.tag.empty() ? neutralize_for_display(tag.tag)
                                     : c.str(tags.size() == 1 ? Str::AllQuestions : Str::OtherQuestions);
        bar.questions = tag.questions;
        bar.seen = tag.seen;
        bar.right = tag.right;
        bar.due = tag.due;
        bar.counts = join({std::string(c.str(Str::ColumnSeen)) + " " + std::to_string(tag.seen),
                           std::string(c.str(Str::ColumnRight)) + " " + std::to_string(tag.right),
                           std::string(c.str(Str::ColumnDue)) + " " + std::to_string(tag.due)},
                          "  ·  ");
        model.table.rows.push_back({bar.topic, std::to_string(tag.questions), std::to_string(tag.seen),
                                    std::to_string(tag.right), std::to_string(tag.due)});
        model.bars.push_back(std::move(bar));
    }
    return model;
}

ResultsModel results(const Context& c) {
    const AppState& s = c.state;
    ResultsModel model;
    const Bank* bank = s.active();
    if (!bank || !s.results) return model;
    const Results& r = *s.results;
    model.present = true;
    model.attempt_id = r.attempt_id;
    model.quiz_title = c.text(*bank, bank->title);
    // A review round's results say so: practice, not a score of the quiz (no verdict, no feedback by score).
    model.heading = c.str(r.review ? Str::ReviewRound : Str::Results);
    // One quiz of the catalog's review across quizzes: which, and the way on to the next.
    const bool across = r.review && s.review_leg_count > 1;
    if (across) model.heading = format_int2(c.str(Str::ReviewLegOf), s.review_leg, s.review_leg_count);
    model.percent = r.percent;
    model.score = r.score;
    model.max_score = r.max_score;
    model.passed = r.passed;
    model.pass_percent = r.pass_percent;
    model.duration_ms = r.duration_ms;
    model.missed = missed_question_ids(r).size();
    model.percent_text = format_percent(r.percent, r.passed ? std::nullopt : std::optional<double>(r.pass_percent));
    // "%s of %s points": each format_text fills the first %s left.
    model.points = format_text(format_text(c.str(Str::Score), format_points(r.score)).c_str(), format_points(r.max_score));
    model.verdict = c.str(r.review ? Str::ReviewNotCounted : r.passed ? Str::Passed : Str::NotPassed);
    model.details = format_int(c.str(Str::PassMark), r.pass_percent) + "  ·  " + c.str(Str::TimeTaken) + " " +
                    format_duration(r.duration_ms);
    const BankSlot& slot = s.banks[static_cast<std::size_t>(s.active_bank)];
    const std::optional<ExamAttempts> attempts = exam_attempts(slot);
    if (attempts) model.details += "  ·  " + format_int2(c.str(Str::AttemptOf), attempt_number(slot, r), attempts->allowed);
    if (const ScoreRange* range = r.review ? nullptr : bank->feedback_range(r.percent))
        c.read(*bank, range->text, model.feedback, model.feedback_rich);
    // Reviewing mistakes is practice: an exam is taken again whole.
    const bool exam = bank->settings.mode == Settings::Mode::Exam;
    const bool review = model.missed > 0 && !exam;
    const bool next_quiz = across && !s.review_legs.empty() && s.review_legs.front().bank < s.banks.size();
    if (next_quiz) {
        const BankSlot& next = s.banks[s.review_legs.front().bank];
        const std::string label = format_text(c.str(Str::ContinueReview), next.bank ? c.text(*next.bank, next.bank->title) : next.id);
        model.buttons.push_back(make_button("review-next", label, Action::of(Action::Kind::ReviewNextQuiz),
                                            ButtonModel::Style::Primary));
    }
    if (review)
        model.buttons.push_back(make_button("review", c.str(Str::ReviewMistakes), Action::of(Action::Kind::ReviewMistakes),
                                            next_quiz ? ButtonModel::Style::Secondary : ButtonModel::Style::Primary));
    if (!attempts || attempts->left() > 0)
        model.buttons.push_back(make_button("retry", c.str(Str::Retry), Action::of(Action::Kind::Retry),
                                            review || next_quiz ? ButtonModel::Style::Secondary : ButtonModel::Style::Primary));
    if (!s.embed)
        model.buttons.push_back(make_button("catalog", c.str(Str::BackToCatalog), Action::of(Action::Kind::BackToCatalog),
                                            ButtonModel::Style::Secondary));
    int number = 0;
    const bool score_only = exam && !bank->settings.review_after_submit;
    if (score_only) model.score_only = c.str(Str::ScoreOnly);
    model.rows.reserve(score_only ? 0 : r.questions.size());
    for (const auto& qr : r.questions) {
        if (score_only) break;
        ++number;
        const Question* q = bank->find_question(qr.question_id);
        if (!q) continue;
        ResultRowModel row;
        row.id = qr.question_id;
        row.outcome = std::string(to_string(qr.outcome));
        row.correct = qr.outcome == Outcome::Correct;
        row.heading = std::to_string(number) + ". " +
                      c.str(row.correct ? Str::Correct : qr.outcome == Outcome::Partial ? Str::PartlyCorrect : Str::Incorrect);
        const LocalizedText prompt = q->type == QuestionType::Cloze
                                         ? cloze_prompt(*bank, *q, c.content, [](const Blank&, int n) { return empty_gap(n); })
                                         : q->prompt;
        c.read(*bank, prompt, row.prompt, row.prompt_rich);
        row.response = response_words(*bank, *q, qr.response, c.content, c.language);
        row.your_answer_line = std::string(c.str(Str::YourAnswer)) + ": " + (row.response ? *row.response : c.str(Str::NoAnswer));
        row.correct_answers = correct_answer_texts(*bank, *q, qr.correct_answer, c.content, c.language);
        if (!row.correct) row.correct_answer_line = std::string(c.str(Str::CorrectAnswer)) + ": " + join(row.correct_answers, "; ");
        if (qr.hints_used > 0 || qr.tries > 1) row.costs = costs_line(c, qr.hints_used, std::max(1, qr.tries), qr.score);
        c.read(*bank, q->explanation, row.explanation, row.explanation_rich);
        model.rows.push_back(std::move(row));
    }
    model.show_more = c.str(Str::ShowMore);
    model.scores = score_chart(c, slot, r);
    model.mastery = mastery_bars(c, slot);
    const auto& finished = slot.progress.finished_attempts;
    if (!finished.empty()) {
        model.past_heading = c.str(Str::PastAttempts);
        for (auto it = finished.rbegin(); it != finished.rend() && model.past_attempts.size() < 10; ++it)
            model.past_attempts.push_back(format_date(it->finished_at_ms) + "   " + format_percent(it->percent) + "   " +
                                          format_duration(it->duration_ms) +
                                          (it->review ? std::string("   ") + c.str(Str::ReviewRound) : std::string()));
    }
    model.announcement = join({as_sentence(model.heading), as_sentence(model.percent_text), as_sentence(model.points),
                               as_sentence(model.verdict)},
                              " ");
    if (!model.feedback.empty()) model.announcement += " " + as_sentence(model.feedback);
    return model;
}

// ---- Settings ---------------------------------------------------------------------------

SettingsModel settings(const Context& c) {
    const AppState& s = c.state;
    const Preferences& prefs = s.preferences;
    SettingsModel model;
    model.back = make_button("back", c.str(Str::Back), Action::of(Action::Kind::CloseSettings), ButtonModel::Style::Quiet);
    model.heading = c.str(Str::Settings);

    OptionGroupModel languages{"language", c.str(Str::Language), {}};
    for (int i = 0; i < static_cast<int>(Language::Count); ++i) {
        Language language = static_cast<Language>(i);
        Action action = Action::of(Action::Kind::SetLanguage);
        action.language = language;
        languages.options.push_back({language_code(language), language_native_name(language), language_code(language),
                                     prefs.language == language, action});
    }
    OptionGroupModel themes{"theme", c.str(Str::Theme), {}};
    for (auto [theme, label] : {std::pair{ThemeChoice::System, Str::ThemeSystem}, std::pair{ThemeChoice::Light, Str::ThemeLight},
                                std::pair{ThemeChoice::Dark, Str::ThemeDark}}) {
        Action action = Action::of(Action::Kind::SetTheme);
        action.theme = theme;
        themes.options.push_back({theme_name(theme), c.str(label), {}, prefs.theme == theme, action});
    }
    OptionGroupModel sizes{"text-size", c.str(Str::TextSize), {}};
    float current = nearest_text_size(prefs.text_scale);
    for (const TextSize& size : text_sizes) {
        Action action = Action::of(Action::Kind::SetTextScale);
        action.number = size.scale;
        char value[16];
        std::snprintf(value, sizeof value, "%g", size.scale);
        sizes.options.push_back({value, size.label, {}, size.scale == current, action});
    }
    model.groups = {std::move(languages), std::move(themes), std::move(sizes)};

    model.progress_heading = c.str(Str::Progress);
    if (!s.storage_persistent) model.storage_warning = c.str(Str::StorageUnavailable);
    model.progress_buttons.push_back(make_button("export", c.str(Str::ExportProgress),
                                                 Action::of(Action::Kind::ExportProgress), ButtonModel::Style::Secondary));
    model.progress_buttons.push_back(make_button("import", c.str(Str::ImportProgress),
                                                 Action::of(Action::Kind::ImportProgress), ButtonModel::Style::Secondary));
    for (std::size_t i = 0; i < s.banks.size(); ++i) {
        const BankSlot& slot = s.banks[i];
        if (!slot.bank) continue;
        const ProgressRecord& p = slot.progress;
        if (p.finished_attempts.empty() && !p.attempt_in_progress && !p.best_percent) continue;
        // "Delete progress" alone would not say which: the quiz is named beside it (the canvas
        // shows the title above the button, the mirror has it in the button's name).
        std::string title = c.text(*slot.bank, slot.bank->title);
        model.delete_titles.push_back(title);
        model.delete_buttons.push_back(make_button("delete-progress:" + slot.id, c.str(Str::DeleteProgress),
                                                   bank_action(Action::Kind::DeleteProgress, i),
                                                   ButtonModel::Style::Secondary, true,
                                                   std::string(c.str(Str::DeleteProgress)) + ": " + title));
    }
    model.delete_titles.push_back({});
    model.delete_buttons.push_back(make_button("delete-all-progress", c.str(Str::DeleteAllProgress),
                                               Action::of(Action::Kind::DeleteAllProgress), ButtonModel::Style::Secondary));
    if (s.pending_delete) {
        int which = *s.pending_delete;
        ConfirmationModel confirm;
        if (which >= 0 && which < static_cast<int>(s.banks.size()) && s.banks[static_cast<std::size_t>(which)].bank) {
            const Bank& bank = *s.banks[static_cast<std::size_t>(which)].bank;
            confirm.question = format_text(c.str(Str::ConfirmDeleteQuiz), c.text(bank, bank.title));
        } else {
            confirm.question = c.str(Str::ConfirmDeleteAll);
        }
        confirm.confirm = make_button("confirm-delete", c.str(Str::Delete), Action::of(Action::Kind::ConfirmDelete),
                                      ButtonModel::Style::Primary);
        confirm.cancel = make_button("cancel-delete", c.str(Str::Cancel), Action::of(Action::Kind::CancelDelete),
                                     ButtonModel::Style::Secondary);
        model.confirmation = std::move(confirm);
    }
    model.import_message = s.import_message;
    return model;
}

std::string document_title(const ScreenModel& model, const Context& c) {
    std::string app = c.str(Str::AppName);
    switch (model.screen) {
    case Screen::Catalog: return std::string(c.str(Str::Catalog)) + " – " + app;
    case Screen::Question:
        return model.question.present ? model.question.position + " – " + model.question.quiz_title + " – " + app : app;
    case Screen::Results: return model.results.present ? model.results.heading + " – " + model.results.quiz_title + " – " + app : app;
    case Screen::Settings: return model.settings.heading + " – " + app;
    default: return app;
    }
}

std::vector<PictureModel> pictures(const AppState& state) {
    std::vector<PictureModel> out;
    for (const Picture& p : state.pictures) {
        PictureModel model;
        model.state = p.state == Picture::State::Ready    ? PictureModel::State::Ready
                      : p.state == Picture::State::Failed ? PictureModel::State::Failed
                                                          : PictureModel::State::Loading;
        model.source = p.source;
        model.url = p.url;
        model.texture = p.texture;
        model.width = p.width;
        model.height = p.height;
        if (!p.problem.empty()) model.problem = neutralize_for_display("the image " + p.source + " " + p.problem);
        out.push_back(std::move(model));
    }
    return out;
}

// The alt text the current question gives the image it shows full size.
std::string alt_of(const QuestionModel& question, const std::string& source) {
    std::string alt;
    auto look = [&](const RichTextRef& text) {
        if (!text || !alt.empty()) return;
        for (const Block& block : text->blocks)
            for (const Inline& run : block.inlines)
                if (run.kind == Inline::Kind::Image && run.link == source && alt.empty()) alt = run.text;
    };
    look(question.prompt_rich);
    look(question.explanation_rich);
    for (const ChoiceModel& choice : question.choices) {
        look(choice.text_rich);
        look(choice.feedback_rich);
    }
    for (const HintModel& hint : question.hints) look(hint.text_rich);
    return alt;
}

}  // namespace

ScreenModel build_screen(const AppState& state) {
    ScreenModel model;
    Context c{state, state.preferences.language, state.language_code(), &model.code_colours_pending};
    model.screen = state.screen;
    model.language = c.content;
    model.embed = state.embed;
    model.dark = wants_dark(state);
    model.theme = theme_name(state.preferences.theme);
    model.text_scale = state.preferences.text_scale;
    model.storage_persistent = state.storage_persistent;
    model.notice = notice(c);
    if (!state.wanted_bank_url.empty()) {
        model.development_banner = format_text(c.str(Str::DevelopmentBank), neutralize_for_display(state.wanted_bank_url));
    }
    model.loading = c.str(Str::Loading);
    model.copy_label = c.str(Str::CopyCode);
    model.picture_not_shown = c.str(Str::PictureNotShown);
    model.pictures = pictures(state);
    // An author previewing a bank= link reads what is wrong with its images under the banner.
    if (!model.development_banner.empty())
        for (const PictureModel& picture : model.pictures)
            if (!picture.problem.empty()) model.development_banner += "\n" + picture.problem;
    if (const Bank* bank = state.active()) {
        model.active_quiz_id = bank->id;
        model.active_quiz_title = c.text(*bank, bank->title);
    }
    // The catalog's cards are published on every screen: the page and the tests follow the
    // banks' loading and progress wherever the learner is.
    model.catalog = catalog(c);
    switch (state.screen) {
    case Screen::Loading:
    case Screen::Catalog: break;
    case Screen::Question:
        model.question = question(c);
        if (!state.embed) model.escape = Action::of(Action::Kind::BackToCatalog);
        break;
    case Screen::Results:
        model.results = results(c);
        if (!state.embed) model.escape = Action::of(Action::Kind::BackToCatalog);
        break;
    case Screen::Settings:
        model.settings = settings(c);
        model.escape = Action::of(state.pending_delete ? Action::Kind::CancelDelete : Action::Kind::CloseSettings);
        break;
    }
    if (!state.viewing_picture.empty() && (state.screen == Screen::Question || state.screen == Screen::Results)) {
        PictureViewerModel viewer;
        viewer.source = state.viewing_picture;
        viewer.alt = alt_of(model.question, viewer.source);
        if (viewer.alt.empty()) viewer.alt = viewer.source;
        viewer.close = make_button("close-picture", c.str(Str::ClosePicture), Action::of(Action::Kind::ClosePicture),
                                   ButtonModel::Style::Secondary);
        model.viewer = std::move(viewer);
        model.escape = Action::of(Action::Kind::ClosePicture);
    }
    model.title = document_title(model, c);
    model.math = &state.math;
    return model;
}

}  // namespace imquiz::app
