// What a screen shows, as plain data: every text already in the learner's language and already
// formatted, every choice with its state, every button with its action and whether it can be
// pressed. Built once per change by build_screen(); every rendering reads it and keeps no rule
// of its own: the ImGui views lay it out (src/ui), the page protocol serializes it for the
// accessibility mirror, the text field and the tests (page_protocol.h), native tests assert it.
#pragma once

#include "app/action.h"
#include "app/bank_texts.h"
#include "app/state.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace imquiz::app {

struct ButtonModel {
    enum class Style { Primary, Secondary, Quiet };
    std::string id;                 // stable on its screen: "check", "open:data-parallelism"
    std::string label;              // what it says
    std::string accessible_name;    // where the label alone is ambiguous ("Start: Data parallelism")
    Action action;
    bool enabled = true;
    Style style = Style::Secondary;
};

struct NoticeModel {
    std::string text;
    ButtonModel dismiss;
};

// The numbers a picture shows, as a table: what the mirror gives a screen reader in its place.
struct TableModel {
    std::string caption;
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
};

// A card's indicator: how much of the bank the learner has met and got right (engine/mastery.h).
struct CardProgressModel {
    int questions = 0, seen = 0, right = 0;
    std::string text;               // "Right at least once: 5 of 8"
};

// One bank of the catalog.
struct CardModel {
    enum class Status { Loading, Ready, FetchFailed, Invalid };
    Status status = Status::Loading;
    std::string key;                // the bank's id, or its URL while the id is unknown
    std::string url;
    std::string title;              // Loading: the id; failed: what went wrong; Ready: the bank's title
    std::string description;
    RichTextRef description_rich;   // the same, as blocks and runs, in a Markdown bank (else null)
    std::string meta;               // "8 questions · EN RU ID"
    std::string standing;           // "Best: 80%", "In progress: 3 of 8 answered", "Not taken yet"
    bool has_best = false;
    std::vector<std::string> problems;  // failed: the fetch error, or the validator's first errors;
                                        // ready: TeX errors MathJax found (the bank still plays)
    std::vector<ButtonModel> buttons;
    // Facts for the page protocol's readers (tests, host pages).
    std::size_t questions = 0;
    std::vector<std::string> languages;
    bool in_progress = false;
    std::size_t attempts = 0;
    std::size_t due = 0;            // questions due for review (docs/spaced-review.md)
    std::optional<std::int64_t> next_review_ms;  // none due in a practice quiz with no attempt in progress: when one will be
    std::optional<CardProgressModel> progress;  // once an attempt has finished
    std::optional<double> best_percent;
};

// The catalog's review across quizzes (shown where it lists two quizzes or more): how many
// questions are due in all of them, and a round of the most urgent; or, with nothing due, when
// the next one will be.
struct ReviewAcrossModel {
    std::string heading;            // "Review"
    std::string text;               // "Due for review in all quizzes: 7", or "Nothing is due for review. Next review: …"
    std::size_t due = 0;            // in all quizzes
    std::size_t quizzes = 0;        // how many have any due
    std::optional<ButtonModel> review;  // when any is due: "Review 7 from all quizzes"
};

struct CatalogModel {
    std::string heading;
    std::string list_label;                     // the list of quizzes, for assistive technology
    ButtonModel settings;
    std::string error_title, error;             // the catalog itself could not be loaded
    std::string empty;                          // it lists no quiz
    std::string not_found_title, not_found;     // quiz= names a quiz it does not list
    std::vector<CardModel> cards;
    std::optional<ReviewAcrossModel> review;
};

// How a choice looks: before Check only Normal / Selected; after it, what it was.
enum class ChoiceMark { Normal, Selected, Correct, CorrectMissed, Wrong, Locked };

struct ChoiceModel {
    std::string id;
    std::string marker;             // "1".."9", then "a".. (1-9 are keyboard shortcuts)
    std::string text;
    std::string feedback;           // the author's per-choice feedback, once checked
    RichTextRef text_rich, feedback_rich;  // in a Markdown bank (else null)
    std::string status;             // "Your answer · Correct": colour is never the only cue
    ChoiceMark mark = ChoiceMark::Normal;
    bool selected = false;
    std::optional<bool> correct;    // known once checked
    bool enabled = true;
    Action action;                  // select / toggle
};

// Numeric and short-text answers: typed into a real input field on the page (web/text-field.js)
// laid over the frame the canvas draws, or the mirror's own field.
struct AnswerFieldModel {
    bool present = false;
    std::string label;              // "Type a number"
    std::string value;
    std::string unit;
    bool numeric = false;
    bool read_only = false;
    std::string problem;            // why the last Check was turned down ("… is not a number")
};

// Matching, ordering and cloze: one row per item. Matching: the item and the answer picked for
// it, out of `options` (a select on every rendering: no drag needed); ordering: the item at its
// place, with Move up / Move down; cloze: a blank, with its `options` (a select) or its `field`.
struct RowOptionModel {
    std::string id;
    std::string text;
    bool selected = false;
    Action action;                  // pair the row's item with this answer ("" id: unpair)
};

struct RowModel {
    std::string id;                 // the item
    std::string text;
    RichTextRef text_rich;
    std::string label;              // its accessible name: "Place 2 of 4: Backward pass"
    // Matching
    std::string answer_id, answer_text;  // the pick ("" none), and its text (or "Choose…")
    std::vector<RowOptionModel> options; // first the empty pick, then every answer
    // Cloze: a typed or numeric blank's field (AnswerFieldModel::present); a blank of choices has
    // `options` and `answer_id` / `answer_text` as a matching item does.
    AnswerFieldModel field;
    // Ordering
    std::size_t place = 0;          // 1-based
    std::string place_label;        // "Place 2 of 4"
    std::optional<ButtonModel> up, down;  // absent at the ends and once checked
    // Once checked
    std::optional<bool> correct;
    std::string status;             // "Correct"; "Incorrect · Right answer: …"; "Right place: 3"
    std::string feedback;           // the author's, for a matching item or a cloze blank
};

struct VerdictModel {
    enum class Tone { Correct, Partial, Wrong };
    Tone tone = Tone::Wrong;
    std::string word;               // "Correct", "Partly correct", "Incorrect"
    bool correct = false;
    double score = 0;               // 0..1
};

// "Are you sure?" before something that cannot be undone.
struct ConfirmationModel {
    std::string question;
    ButtonModel confirm;            // the destructive one
    ButtonModel cancel;
};

// Exam: a question's button in the palette (the answer sheet).
struct PaletteItemModel {
    std::string id;                 // "question:3"
    std::string number;             // "3"
    std::string label;              // its accessible name: "Question 3: answered, flagged"
    bool answered = false, flagged = false, current = false;
    Action action;                  // go there
};

// Exam: moving between questions in any order, flags, and the one submit.
struct ExamModel {
    std::string heading;            // "Questions"
    std::string answered;           // "Answered: 3 of 8"
    std::vector<PaletteItemModel> palette;
    std::optional<ButtonModel> previous;  // absent on the first question
    ButtonModel flag;               // "Flag for review" / "Remove the flag"
    bool flagged = false;
    ButtonModel submit;             // "Submit answers…"
    // While "Submit your answers?" is asked: the question, then what is not answered.
    std::optional<ConfirmationModel> confirmation;
    std::string unanswered;         // "Not answered: 3, 5." or "Every question is answered."
    // With a time limit: "Time left: 12:34"; the milliseconds; and from five minutes before the
    // end, a warning that changes only at 5 and 1 minute left (said once each by the mirror).
    std::string time_left;
    std::optional<std::int64_t> time_left_ms;
    std::string time_warning;
};

// A hint the learner has revealed.
struct HintModel {
    std::string heading;            // "Hint 1 of 2"
    std::string text;
    RichTextRef text_rich;
};

// The last try was not right and tries are left (shown while the answer is as it was tried).
struct TryAgainModel {
    VerdictModel::Tone tone = VerdictModel::Tone::Wrong;
    std::string word;               // "Not right yet", "Partly correct"
    std::string message;            // "Tries left: 2. Change your answer and check again."
};

struct QuestionModel {
    bool present = false;
    std::string quiz_title;
    std::string counter;            // "3 / 8"
    std::string position;           // "Question 3 of 8"
    float progress = 0;             // 0..1, the bar
    std::size_t index = 0, total = 0;  // 1-based index
    std::string id;
    std::string type;               // the bank's type name: "single_choice", ...
    std::string prompt;
    RichTextRef prompt_rich;        // Markdown banks: the prompt as blocks and runs; else null
    std::string instruction;        // "Choose one answer." (before Check, choice questions)
    bool multiple = false;
    std::vector<ChoiceModel> choices;
    AnswerFieldModel field;
    std::vector<RowModel> rows;     // matching, ordering, cloze (a row per blank, in the prompt's order)
    std::string moved;              // the last move or pairing, in words (announced), "" none
    std::vector<HintModel> hints;   // revealed so far, in order
    std::optional<ButtonModel> hint;  // reveals the next one (absent when none is left, or checked)
    std::string tries;              // "Try 2 of 3" (questions with more than one try)
    std::optional<TryAgainModel> try_again;
    std::optional<ExamModel> exam;  // an exam's question (no Check: answers are kept as given)
    bool checked = false;
    VerdictModel verdict;
    std::vector<std::string> correct_answers;   // the right answer(s), as shown
    std::string correct_answer_line;            // "Correct answer: 20"; empty when the cards say it
    std::string costs;                          // "Hints used: 1 · Tries: 2 · Points: 0.5 of 1" (when any)
    std::string explanation_heading, explanation;
    RichTextRef explanation_rich;
    std::string announcement;       // what a screen reader hears after Check
    std::optional<ButtonModel> back;  // not in embeds
    ButtonModel primary;            // Check, then Next / See results
    std::string shortcuts;          // the keyboard hint (not on touch screens)
};

struct ResultRowModel {
    std::string id;
    std::string outcome;            // "correct", "partial", "wrong", "skipped"
    bool correct = false;
    std::string heading;            // "3. Incorrect"
    std::string prompt;
    RichTextRef prompt_rich;
    std::optional<std::string> response;  // what the learner answered, in words; none if skipped
    std::string your_answer_line;   // "Your answer: …"
    std::vector<std::string> correct_answers;
    std::string correct_answer_line;  // "Correct answer: …"; empty when they were right
    std::string costs;              // as on the question, when hints or extra tries were used
    std::string explanation;
    RichTextRef explanation_rich;
};

// The score of each past attempt, as bars against the pass mark.
struct ScoreBarModel {
    double percent = 0;
    bool passed = false;
    bool current = false;           // the attempt these results are of
    std::string label;              // its number, counting every attempt at the quiz: "12"
    std::string value;              // "75%"
};

struct ScoreChartModel {
    std::string heading;            // "Your scores"
    std::string pass_line;          // "Pass mark: 70%"
    int pass_percent = 0;
    std::vector<ScoreBarModel> bars;    // oldest first, the last ten; none before a second attempt
    TableModel table;
};

// Per tag: of its questions, how many the learner has met, got right, has due for review.
struct MasteryBarModel {
    std::string topic;              // the tag; "All questions" or "Other questions"
    int questions = 0, seen = 0, right = 0, due = 0;
    std::string counts;             // "Seen 4 · Right 3 · Due 1"
};

struct MasteryModel {
    std::string heading;            // "By topic"
    std::vector<MasteryBarModel> bars;
    TableModel table;
};

struct ResultsModel {
    bool present = false;
    std::string attempt_id;
    std::string quiz_title, heading;
    std::string percent_text;       // "75%"
    std::string points;             // "6 of 8 points"
    std::string verdict;            // "Passed" / "Not passed"
    std::string details;            // "Pass mark: 70% · Time taken 3:05"
    std::string feedback;           // the bank's feedback for this score range ("" none)
    RichTextRef feedback_rich;
    bool passed = false;
    double percent = 0, score = 0, max_score = 0;
    int pass_percent = 0;
    std::int64_t duration_ms = 0;
    std::size_t missed = 0;
    std::vector<ButtonModel> buttons;   // Review mistakes (if any), Retry, Back to quizzes
    std::vector<ResultRowModel> rows;   // none when an exam shows the score only
    std::string score_only;         // then, why there are none
    std::string show_more;          // where a rendering shows the rows a page at a time
    ScoreChartModel scores;
    MasteryModel mastery;
    std::string past_heading;
    std::vector<std::string> past_attempts;  // newest first, at most 10
    std::string announcement;
};

struct OptionModel {
    std::string value;              // "ru", "dark", "1.25": what the page protocol calls it
    std::string label;
    std::string language;           // the label's own language (language names)
    bool selected = false;
    Action action;
};

struct OptionGroupModel {
    std::string id;                 // "language", "theme", "text-size"
    std::string legend;
    std::vector<OptionModel> options;
};

struct SettingsModel {
    ButtonModel back;
    std::string heading;
    std::vector<OptionGroupModel> groups;
    std::string progress_heading;
    std::string storage_warning;
    std::vector<ButtonModel> progress_buttons;   // export, import
    std::vector<ButtonModel> delete_buttons;     // per quiz with progress, then all
    std::vector<std::string> delete_titles;      // the quiz each one deletes ("" for all)
    std::optional<ConfirmationModel> confirmation;
    std::string import_message;
};

// An image of the active bank's texts, for every rendering: the canvas draws its texture where
// a run names its source, the mirror an <img> of its URL.
struct PictureModel {
    enum class State { Loading, Ready, Failed };
    State state = State::Loading;
    std::string source;             // as the texts write it (an image run's `link`)
    std::string url;                // relative to the page
    std::uint32_t texture = 0;      // Ready
    int width = 0, height = 0;      // its own size, CSS pixels (0 until its file was read)
    std::string problem;            // Failed: "the image images/x.svg is not there: ..."
};

// One image shown full size over the screen (tap or Enter on it).
struct PictureViewerModel {
    std::string source;
    std::string alt;
    ButtonModel close;
};

struct ScreenModel {
    Screen screen = Screen::Loading;
    std::string language;           // "en", the document's language
    std::string title;              // the document's (tab's) title
    bool embed = false;
    bool dark = false;              // the effective theme
    std::string theme;              // the learner's choice: "system", "light", "dark"
    float text_scale = 1;
    bool storage_persistent = true;
    std::optional<NoticeModel> notice;
    std::string development_banner;  // bank= links: where this bank comes from (every screen)
    std::string loading;            // the loading screen's words
    std::string copy_label;         // a Markdown code block's Copy button
    std::string picture_not_shown;  // beside the alt text of an image that cannot be shown
    std::vector<PictureModel> pictures;
    std::optional<PictureViewerModel> viewer;
    bool code_colours_pending = false;  // a code block is plain until the highlighter comes (bank_texts.h)
    Action escape;                  // what Esc does here (Kind::None: nothing)
    std::optional<std::string> active_quiz_id, active_quiz_title;
    CatalogModel catalog;
    QuestionModel question;
    ResultsModel results;
    SettingsModel settings;
    const MathFormulas* math = nullptr;  // the formulas typeset so far (the state's), for drawing
};

ScreenModel build_screen(const AppState& state);

}  // namespace imquiz::app
