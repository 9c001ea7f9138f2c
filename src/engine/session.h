// One attempt at a bank: a pure, deterministic state machine. The same bank + seed + responses
// give the same order, scores and results on every platform (native and wasm), so a page reload
// resumes exactly where the learner was. Time is passed in as numbers (milliseconds from any
// epoch the caller likes); the engine never reads a clock.
#pragma once

#include "engine/bank.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz {

// What the learner gave. Only the field matching the question type is looked at.
struct Response {
    // SingleChoice (exactly one), MultipleChoice (any); Ordering: every item id, in the learner's order
    std::vector<std::string> choice_ids;
    bool true_false = false;              // TrueFalse
    std::string text;                     // Numeric (as typed, "3,5" or "3.5") and ShortText
    // Matching: (item id, answer id) for each item the learner paired, in the question's item order;
    // cloze: (blank id, the text typed or the choice id) per blank, in the question's blank order
    std::vector<std::pair<std::string, std::string>> pairs;

    static Response choices(std::vector<std::string> choice_ids);
    static Response boolean(bool value);
    static Response typed(std::string text);
    static Response matched(std::vector<std::pair<std::string, std::string>> pairs);

    friend bool operator==(const Response& a, const Response& b);
    friend bool operator!=(const Response& a, const Response& b) { return !(a == b); }
};

// The right answer of a question, in a form the UI can show next to the learner's response.
struct CorrectAnswer {
    QuestionType type = QuestionType::SingleChoice;
    std::vector<std::string> choice_ids;        // SingleChoice, MultipleChoice (bank order)
    bool true_false = false;                    // TrueFalse
    NumericAnswer numeric;                      // Numeric
    std::vector<LocalizedText> accepted_texts;  // ShortText (the first is the one to show)
    // Ordering: choice_ids, the items in the right order. Matching: (item id, answer id) per item.
    // Cloze: (blank id, the right choice's id) per blank; "" for typed and numeric blanks.
    std::vector<std::pair<std::string, std::string>> pairs;
};

CorrectAnswer correct_answer(const Question& question);

struct AnswerRecord {
    Response response;
    double score = 0;            // 0..1, after what hints and extra tries cost
    bool correct = false;        // the answer was right (full marks before those costs)
    std::int64_t answered_at_ms = 0;
};

// One question as this attempt presents it.
struct SessionQuestion {
    std::string question_id;
    std::vector<std::string> choice_order;   // presentation order of the choices (choice types)
    std::optional<AnswerRecord> answer;      // set once checked (the last try)
    std::size_t hints_shown = 0;             // the first this many of the question's hints
    std::vector<Response> wrong_tries;       // earlier tries that were not right, in order
    bool flagged = false;                    // exam: marked for review by the learner
};

struct Session {
    std::string attempt_id;          // unique per attempt; merges of progress key on it
    std::string bank_id;
    std::string bank_fingerprint;    // bank_fingerprint() of the bank it was started on
    std::uint64_t seed = 0;
    std::vector<SessionQuestion> questions;  // presentation order (after shuffle and pool draw)
    std::size_t current = 0;         // index into questions; questions.size() once finished
    std::int64_t started_at_ms = 0;
    // Active time: advanced by each call that passes a clock reading, but not across a reload
    // (see resume_session), so a tab left closed overnight does not count as quiz time.
    std::int64_t elapsed_ms = 0;
    std::int64_t last_activity_ms = 0;
    // A review round (Review mistakes, Review N due): some of the quiz's questions again, as
    // practice. It counts towards each question's statistics and schedule, not as a score of the
    // quiz (best score, the chart of scores, the LMS's grade).
    bool review = false;
};

struct SessionOptions {
    // Retry-missed: only these questions (unknown ids are ignored; the pool size is not applied).
    // Empty = the whole bank, with the bank's pool draw.
    std::vector<std::string> only_question_ids;
    std::int64_t now_ms = 0;
    bool review = false;   // Session::review
    // bank_fingerprint(bank) when the caller has it already (hashing a 10,000-question bank's
    // every text took 30-45 ms of a cold load in Chromium here); empty: computed here.
    std::string bank_fingerprint;
};

// Orders the questions (pool draw, shuffles) from `seed` with the engine's own PRNG
// (splitmix64): std::shuffle and the std distributions differ between standard libraries.
Session start_session(const Bank& bank, std::uint64_t seed, const SessionOptions& options = {});

// After restoring a saved session: restarts the activity clock at `now_ms` without counting the
// time away.
void resume_session(Session& session, std::int64_t now_ms);

// True when the session was started on this bank content (same fingerprint) and every question
// and choice it refers to still exists; resume only such a session.
// `fingerprint`: bank_fingerprint(bank) when the caller has it already; empty: computed here.
bool session_matches_bank(const Session& session, const Bank& bank, std::string_view fingerprint = {});

bool is_finished(const Session& session);
// The question at `session.current`; null once finished or if the bank does not have it.
const Question* current_question(const Session& session, const Bank& bank);
// A question's choices in the order this attempt shows them.
std::vector<const Choice*> choices_in_order(const SessionQuestion& slot, const Question& question);
// A cloze blank's choices in the order this attempt shows them.
std::vector<const Choice*> options_in_order(const SessionQuestion& slot, const Blank& blank);
std::size_t answered_count(const Session& session);

// Why check() refused a response. Nothing is recorded then; the learner can fix the input.
enum class InputProblem {
    None,
    NoChoiceSelected,     // choice question, empty selection
    TooManyChoices,       // single_choice with more than one id
    UnknownChoice,        // an id the question does not have
    NotANumber,           // numeric input that parse_number() rejects
    Incomplete,           // matching with an item not paired; ordering without every item once;
                          // cloze with a blank of choices not chosen
    EmptyText,            // short_text (or a typed cloze blank) with nothing but whitespace
    AlreadyAnswered,      // the current question was checked already (see current_feedback)
    NoCurrentQuestion,    // the session is finished
};

struct ChoiceFeedback {
    std::string choice_id;
    bool selected = false;
    bool correct = false;
    // The author's per-choice feedback, only where it should be shown: on choices the learner
    // selected, and on correct choices they missed. Empty otherwise.
    LocalizedText feedback;
};

// One part of a matching (an item), ordering (an item at a place) or cloze (a blank) answer, once checked.
struct PartFeedback {
    std::string id;                  // the item
    std::string given;               // matching: the answer id paired with it; cloze: as typed, or
                                     // the choice id; ordering: ""
    bool correct = false;            // matching: the right answer; ordering: at its right place
    LocalizedText feedback;          // the author's, for the item (matching)
};

struct Feedback {
    InputProblem problem = InputProblem::None;
    // False after a try that was not right while tries are left: the learner tries again, and
    // this feedback holds only what may be told before the answer is (the verdict, and the
    // feedback of the choices they picked); no correct answer, parts or explanation.
    bool final = true;
    int try_number = 1;                    // this try, 1-based
    int tries_left = 0;                    // after this one (0 when final)
    std::size_t hints_used = 0;
    double before_costs = 0;               // the answer's own score, before hints and extra tries
    bool correct = false;
    double score = 0;                      // 0..1; fractional with partialCredit; after costs
    CorrectAnswer correct_answer;          // correct_answer.choice_ids for choice questions
    std::vector<ChoiceFeedback> choices;   // presentation order; choice questions only
    std::vector<PartFeedback> parts;       // matching: per item (bank order); ordering: per place
    LocalizedText explanation;
};

// Scores `response` for the current question and records it (stamped `now_ms`). Single choice,
// true/false, numeric and short text score 0 or 1. Multiple choice is all-or-nothing, or with
// partialCredit max(0, (right picks - wrong picks) / correct choices). Matching is all-or-nothing,
// or with partialCredit (items paired right) / items. Ordering is all-or-nothing, or with
// partialCredit (neighbours in the right order) / (items - 1): each item directly followed by
// the one that follows it in the right order counts, so one item out of place costs one or two
// of those, not everything after it. Cloze is all-or-nothing, or with partialCredit (blanks
// right) / blanks; every blank must be filled (InputProblem::EmptyText, Incomplete, NotANumber).
// With tries left (maxTries), an answer that is not right is kept as a wrong try and the feedback
// is not final; a response equal to an earlier wrong try is taken as that try again, not as a new
// one. The recorded score is the answer's times points_kept().
Feedback check(Session& session, const Bank& bank, const Response& response, std::int64_t now_ms);

// What hints and extra tries leave of a question's points: 1 - the shown hints' costs - the
// penalty per try after the first, at least 0. The answer's score is multiplied by it.
double points_kept(const Bank& bank, const Question& question, std::size_t hints_shown, int tries);

// Shows the current question's next hint. False when it has none left or was answered already.
bool reveal_hint(Session& session, const Bank& bank, std::int64_t now_ms);

// The feedback on the current question's last try that was not right, while it may be tried
// again (to show it again after a reload); nullopt when there was none or it was answered.
std::optional<Feedback> last_try_feedback(const Session& session, const Bank& bank);

// Why check() would refuse `response` for `question` (InputProblem::None: it would take it).
InputProblem response_problem(const Question& question, const Response& response);

// The id under which a resumed attempt goes on. Another tab may be playing the stored attempt
// too (a duplicated tab, a second window): each place it is resumed continues it under its own
// id ("<original>.<random>"), so when both finish, both attempts are recorded instead of one
// replacing the other.
std::string continued_attempt_id(const std::string& attempt_id, std::uint64_t random);

// The feedback of the current question if it was checked (to show it again after a reload).
std::optional<Feedback> current_feedback(const Session& session, const Bank& bank);

// Moves to the next question. An unchecked question passed over counts as skipped (score 0).
void next(Session& session, std::int64_t now_ms);

// ---- Exam mode (Settings::Mode::Exam) ----
// Nothing is told before the end: each question's answer is recorded as the learner gives it (and
// replaced when they change it), scored but not shown; they move between questions in any order,
// flag some for review, and submit. Unanswered questions then count as skipped.

// Records `response` as the answer of question `index` (nullopt, or a response check() would
// refuse for having nothing in it: no answer). A number that is not one is kept as typed and
// scores 0. False when there is no such question or the attempt is over.
bool record_exam_answer(Session& session, const Bank& bank, std::size_t index, const std::optional<Response>& response,
                        std::int64_t now_ms);
// Moves to question `index` (any of the attempt's).
bool go_to_question(Session& session, std::size_t index, std::int64_t now_ms);
bool toggle_flag(Session& session, std::size_t index);
// The questions with no answer, by index, in the attempt's order.
std::vector<std::size_t> unanswered_questions(const Session& session);
// Ends the attempt (Session::current becomes questions.size()).
void submit_exam(Session& session, std::int64_t now_ms);
// An exam with a time limit: what is left of it at `now_ms`, counted from the attempt's start by
// the wall clock (Session::started_at_ms), not by a running counter, so a reload, a closed tab or
// a sleeping laptop do not stop it. A clock set back before the start gives the whole limit, never
// more. nullopt when the bank has no limit.
std::optional<std::int64_t> exam_time_left_ms(const Session& session, const Bank& bank, std::int64_t now_ms);

enum class Outcome { Correct, Partial, Wrong, Skipped };
std::string_view to_string(Outcome outcome);   // "correct", "partial", "wrong", "skipped"
std::optional<Outcome> outcome_from_string(std::string_view name);

struct QuestionResult {
    std::string question_id;
    Outcome outcome = Outcome::Skipped;
    double score = 0;
    std::optional<Response> response;   // absent when skipped
    CorrectAnswer correct_answer;
    int tries = 0;                      // tries made (0 when skipped without one)
    std::size_t hints_used = 0;
};

struct Results {
    std::string attempt_id;
    double score = 0;                   // sum of question scores
    double max_score = 0;               // number of questions in the attempt
    double percent = 0;                 // 0..100 (0 for an empty attempt)
    int pass_percent = 0;
    bool passed = false;                // percent >= bank passPercent
    std::int64_t started_at_ms = 0;
    std::int64_t duration_ms = 0;       // active time (Session::elapsed_ms)
    bool review = false;                // of a review round (Session::review)
    std::vector<QuestionResult> questions;  // presentation order
};

// Valid at any point; questions not answered yet count as skipped.
Results results(const Session& session, const Bank& bank);

// Wrong, partial and skipped questions, in attempt order.
std::vector<std::string> missed_question_ids(const Results& results);

// A fresh attempt at the whole bank (new pool draw and order from the new seed).
Session retry_all(const Bank& bank, std::uint64_t seed, std::int64_t now_ms);
// A review round of the questions missed in `previous`.
Session retry_missed(const Bank& bank, const Results& previous, std::uint64_t seed,
                     std::int64_t now_ms);

// Learner input for numeric questions: optional sign, digits with '.' or ',' as the decimal
// separator, optional exponent ("1e-3"); surrounding whitespace ignored. No thousands
// separators ("1,000" is 1.0). Locale-independent, same result native and wasm.
std::optional<double> parse_number(std::string_view text);

// Short-text matching: true when `typed` equals any translation of any accepted text after
// normalize_for_matching (see engine/unicode.h).
bool short_text_matches(const Question& question, std::string_view typed);
bool accepted_text_matches(const std::vector<LocalizedText>& accepted_texts, std::string_view typed);

// A cloze blank: whether `given` (typed text, a number, or a choice id) is right, and why check()
// would refuse it (InputProblem::None: it would take it).
bool blank_accepts(const Blank& blank, std::string_view given);
InputProblem blank_input_problem(const Blank& blank, std::string_view given);

} // namespace imquiz
