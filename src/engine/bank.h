// The quiz bank in memory: what a bank file (quizzes/<id>.json, format v1) describes once loaded
// and validated. See quizzes/README.md for the file format.
#pragma once

#include "engine/text.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace imquiz {

enum class QuestionType { SingleChoice, MultipleChoice, TrueFalse, Numeric, ShortText, Matching, Ordering, Cloze };

// The spelling used in bank files: "single_choice", "multiple_choice", "true_false", "numeric",
// "short_text", "matching", "ordering", "cloze".
std::string_view to_string(QuestionType type);
std::optional<QuestionType> question_type_from_string(std::string_view name);

struct Choice {
    std::string id;              // slug, unique within its question
    LocalizedText text;
    bool correct = false;
    LocalizedText feedback;      // optional; empty when the author wrote none
};

// A matching question's item (the left side): the learner pairs it with one of the question's
// answers (`Question::choices`, the right side, which may hold more answers than there are
// items: distractors).
struct MatchItem {
    std::string id;              // slug, unique within its question
    LocalizedText text;
    std::string answer_id;       // the choice it goes with
    LocalizedText feedback;      // optional; shown once checked
};

// The accepted range of a numeric answer, inclusive at both ends. Authors write either
// `value` with `tolerance`, or `min` and `max`; both forms are kept so the UI can show them as
// written ("3.5 ± 0.05" or "between 3 and 4").
struct NumericAnswer {
    enum class Form { ValueWithTolerance, Range };
    Form form = Form::ValueWithTolerance;
    double value = 0;            // ValueWithTolerance
    double tolerance = 0;        // ValueWithTolerance, >= 0
    double min = 0;              // Range
    double max = 0;              // Range, >= min

    double lowest() const;
    double highest() const;
    // Inclusive; a tiny relative slack absorbs binary rounding (0.1 + 0.2 vs 0.3).
    bool accepts(double number) const;
};

// A cloze question's blank: written `{{id}}` in the prompt, answered by typing (accepted texts,
// matched as short text is), by a number (a numeric answer and unit), or by picking one of its
// options (exactly one correct).
struct Blank {
    enum class Kind { Typed, Numeric, Options };
    std::string id;              // slug, unique within its question
    Kind kind = Kind::Typed;
    std::vector<LocalizedText> accepted_texts;  // Typed
    NumericAnswer numeric_answer;               // Numeric
    LocalizedText unit;                         // Numeric, optional
    std::vector<Choice> options;                // Options; ids unique within the question
    LocalizedText feedback;                     // optional; shown once checked

    const Choice* find_option(std::string_view option_id) const;
    const Choice* correct_option() const;
};

// Where the blanks of a cloze prompt are: the text between them, and each `{{id}}`.
struct ClozePiece {
    std::string text;            // literal text before the blank (or the end)
    std::string blank_id;        // "" for the last piece
};
// Splits `prompt` at every `{{id}}` (an id being a slug); the text after the last blank is a
// last piece with no blank id.
std::vector<ClozePiece> split_cloze(std::string_view prompt);

// A hint: the learner reveals a question's hints one at a time, in order. Each may cost a share of
// the question's points (Moodle's interactive behaviour).
struct Hint {
    LocalizedText text;
    double cost = 0;             // 0..1 of the question's points
};

struct Question {
    std::string id;              // slug, unique within the bank
    QuestionType type = QuestionType::SingleChoice;
    LocalizedText prompt;
    LocalizedText explanation;   // optional (the validator warns when missing)
    std::vector<std::string> tags;

    // SingleChoice, MultipleChoice; Matching: the answers (the right side); Ordering: the items,
    // in the right order (`correct` unused).
    std::vector<Choice> choices;
    std::vector<MatchItem> match_items;         // Matching: the items (the left side)
    bool true_false_answer = false;             // TrueFalse
    NumericAnswer numeric_answer;               // Numeric
    LocalizedText unit;                         // Numeric, optional ("GB", "ms")
    std::vector<LocalizedText> accepted_texts;  // ShortText: every translation of each is accepted
    std::vector<Blank> blanks;                  // Cloze, in the order the prompt shows them

    std::vector<Hint> hints;                    // optional, any type
    std::optional<int> max_tries;               // overrides Settings::max_tries
    std::optional<double> try_penalty;          // overrides Settings::try_penalty

    const Choice* find_choice(std::string_view choice_id) const;
    const MatchItem* find_match_item(std::string_view item_id) const;
    const Blank* find_blank(std::string_view blank_id) const;
    std::vector<std::string> correct_choice_ids() const;
};

struct Settings {
    bool shuffle_choices = false;
    bool shuffle_questions = false;
    int pool_size = 0;           // 0 = every question; else draw this many per attempt
    int pass_percent = 70;       // 0..100
    // Fractional scores instead of all-or-nothing: multiple_choice, matching, ordering and cloze (see
    // session.h's check()).
    bool partial_credit = false;
    // Tries per question: after a try that is not right the learner may try again, up to this
    // many tries in all; each try after the first costs `try_penalty` of the question's points.
    int max_tries = 1;
    double try_penalty = 1.0 / 3.0;
    // Practice tells right or wrong after each answer; an exam tells nothing until the learner
    // submits, lets them answer in any order and flag questions, then shows the review (or, with
    // review_after_submit false, the score only).
    enum class Mode { Practice, Exam };
    Mode mode = Mode::Practice;
    bool review_after_submit = true;
    // Exam: minutes from the attempt's start until it is submitted as it stands (0: no limit).
    double time_limit_minutes = 0;
    // Exam: how many attempts a learner has at the bank as it is now (see attempts_at in
    // progress.h); 0: no limit; none given: one. Not in the fingerprint: raising the limit gives
    // one more attempt, it does not start the count again.
    std::optional<int> max_attempts;
};

// Feedback on the whole attempt by its result (H5P's and Moodle's overall feedback): shown on the
// results when the percent is within [from, to].
struct ScoreRange {
    int from = 0, to = 100;      // whole percents, inclusive
    LocalizedText text;
};

// How a bank's texts read: as they are, or as Markdown ("textFormat": "markdown"; markdown.h).
enum class TextFormat { Plain, Markdown };

// An image file a Markdown text shows: its source as written (relative to the bank file) and the
// JSON path of the first text that shows it (where a problem with the file is reported).
struct ImageReference {
    std::string source;
    std::string path;
};

struct Bank {
    std::string id;              // slug, also the key of the learner's progress
    TextFormat text_format = TextFormat::Plain;
    LocalizedText title;
    LocalizedText description;   // optional
    std::vector<std::string> languages;  // declared languages, in the author's order
    std::string default_language;        // one of `languages`
    std::string notes;           // author notes, never shown to learners
    Settings settings;
    std::vector<Question> questions;
    std::vector<ScoreRange> feedback_ranges;  // optional; no two overlap
    // Markdown banks: every image file the texts show, each once, in the order they appear.
    // The loader checks how they are written; their files are checked by whoever can read them
    // (quizc from the disk, the app once fetched: image_file.h).
    std::vector<ImageReference> images;

private:
    // (hash of the id, position in `questions`), by hash. Rebuilt when the count changes; a
    // position is only trusted once its question's id is compared.
    mutable std::vector<std::pair<std::uint64_t, std::uint32_t>> question_index_;

public:
    // Through an index by id built on first use (a session or results walk of 20,000 questions
    // by linear search took 4 s in the browser); always right, even after `questions` changed.
    const Question* find_question(std::string_view question_id) const;
    // The score-range feedback for `percent` (rounded down to a whole percent), or null.
    const ScoreRange* feedback_range(double percent) const;
    // Shorthand for text.get(language, default_language).
    const std::string& text(const LocalizedText& text, std::string_view language) const;
};

// 16 lowercase hex digits: a stable 64-bit hash (FNV-1a) of what decides scoring and resuming:
// question ids and types, choice ids and which are correct, the true/false, numeric and accepted
// short-text answers (normalized as they are compared), passPercent and partialCredit.
// Rewording, translating, reordering choices or changing shuffle settings keeps it; it is the
// same on every platform (native and wasm) and across runs.
// Hints' costs, maxTries and tryPenalty count too, where a bank has them.
std::string bank_fingerprint(const Bank& bank);
// The same, of one question alone (its id, type and key), in 8 hex digits: a review schedule
// follows a question only while this stays (schedule.h). Short, as a schedule is kept for every
// question answered, and 32 bits tell an edit from none well enough.
std::string question_fingerprint(const Question& question);

// How many tries the question allows, and what each extra try costs (its own or the bank's).
int max_tries(const Bank& bank, const Question& question);
double try_penalty(const Bank& bank, const Question& question);
// How many attempts an exam allows (0: no limit; practice has none).
int max_attempts(const Bank& bank);

// quizzes/index.json: the banks the app offers, in display order.
struct CatalogEntry {
    std::string id;              // the bank's id
    std::string file;            // path relative to the catalog, like "data-parallelism.json"
    std::string formulas;        // its formulas typeset ahead of time, like "x.formulas.json"; "" for none
};

struct Catalog {
    std::vector<CatalogEntry> banks;
};

} // namespace imquiz
