#include "engine/session.h"

#include "engine/hash.h"
#include "engine/unicode.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>

namespace imquiz {
namespace {

// splitmix64 (Steele, Lea, Flood 2014): a few lines of 64-bit arithmetic, so the same seed gives
// the same sequence everywhere, unlike std::shuffle / std::uniform_int_distribution whose
// algorithms differ between libstdc++ and libc++ (the wasm build).
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, bound), bound > 0, without modulo bias (rejection sampling).
    std::uint64_t below(std::uint64_t bound) {
        const std::uint64_t threshold = (0 - bound) % bound;
        for (;;) {
            const std::uint64_t r = next();
            if (r >= threshold)
                return r % bound;
        }
    }

private:
    std::uint64_t state_;
};

template <typename T>
void shuffle(std::vector<T>& items, SplitMix64& random) {
    for (std::size_t i = items.size(); i > 1; --i)
        std::swap(items[i - 1], items[random.below(i)]);
}

// Independent streams per purpose: a question's choice order depends on the seed and the
// question id only, not on where the question landed or how many came before.
std::uint64_t stream_seed(std::uint64_t seed, std::string_view purpose,
                          std::string_view detail = {}) {
    Fnv1a hash;
    hash.integer(seed);
    // The text purpose + detail, without making it (a string per question of the bank).
    hash.integer(purpose.size() + detail.size());
    hash.bytes(purpose.data(), purpose.size());
    hash.bytes(detail.data(), detail.size());
    return hash.value();
}

void advance_clock(Session& session, std::int64_t now_ms) {
    // Saturating: the numbers may come from a restored (possibly tampered) record.
    std::int64_t delta = 0;
    if (now_ms > session.last_activity_ms &&
        !__builtin_sub_overflow(now_ms, session.last_activity_ms, &delta) &&
        __builtin_add_overflow(session.elapsed_ms, delta, &session.elapsed_ms))
        session.elapsed_ms = INT64_MAX;
    session.last_activity_ms = now_ms;   // also when the clock went back: trust the newest
}

bool contains(const std::vector<std::string>& items, std::string_view item) {
    return std::find(items.begin(), items.end(), item) != items.end();
}

double score_response(const Question& question, const Response& response, bool partial_credit) {
    switch (question.type) {
    case QuestionType::SingleChoice: {
        const Choice* choice = question.find_choice(response.choice_ids.front());
        return choice != nullptr && choice->correct ? 1.0 : 0.0;
    }
    case QuestionType::MultipleChoice: {
        int correct_total = 0;
        int hits = 0;
        int wrong_picks = 0;
        for (const Choice& choice : question.choices) {
            const bool selected = contains(response.choice_ids, choice.id);
            correct_total += choice.correct ? 1 : 0;
            hits += choice.correct && selected ? 1 : 0;
            wrong_picks += !choice.correct && selected ? 1 : 0;
        }
        if (correct_total == 0)
            return 0.0;
        if (hits == correct_total && wrong_picks == 0)
            return 1.0;
        if (!partial_credit)
            return 0.0;
        return std::max(0.0, static_cast<double>(hits - wrong_picks) / correct_total);
    }
    case QuestionType::TrueFalse:
        return response.true_false == question.true_false_answer ? 1.0 : 0.0;
    case QuestionType::Numeric: {
        const auto number = parse_number(response.text);
        return number && question.numeric_answer.accepts(*number) ? 1.0 : 0.0;
    }
    case QuestionType::ShortText:
        return short_text_matches(question, response.text) ? 1.0 : 0.0;
    case QuestionType::Matching: {
        std::size_t right = 0;
        for (const MatchItem& item : question.match_items)
            for (const auto& [item_id, answer_id] : response.pairs)
                if (item_id == item.id && answer_id == item.answer_id)
                    ++right;
        const std::size_t total = question.match_items.size();
        if (total == 0)
            return 0.0;
        if (right == total)
            return 1.0;
        return partial_credit ? static_cast<double>(right) / static_cast<double>(total) : 0.0;
    }
    case QuestionType::Cloze: {
        std::size_t right = 0;
        for (const Blank& blank : question.blanks)
            for (const auto& [blank_id, given] : response.pairs)
                if (blank_id == blank.id && blank_accepts(blank, given))
                    ++right;
        const std::size_t total = question.blanks.size();
        if (total == 0)
            return 0.0;
        if (right == total)
            return 1.0;
        return partial_credit ? static_cast<double>(right) / static_cast<double>(total) : 0.0;
    }
    case QuestionType::Ordering: {
        const std::size_t total = question.choices.size();
        if (total == 0 || response.choice_ids.size() != total)
            return 0.0;
        std::vector<std::size_t> place;   // each given item's place in the right order
        for (const std::string& id : response.choice_ids) {
            std::size_t at = 0;
            while (at < total && question.choices[at].id != id) ++at;
            place.push_back(at);
        }
        std::size_t in_place = 0, neighbours = 0;
        for (std::size_t i = 0; i < total; ++i) {
            in_place += place[i] == i ? 1 : 0;
            if (i + 1 < total && place[i] + 1 == place[i + 1]) ++neighbours;
        }
        if (in_place == total)
            return 1.0;
        if (!partial_credit || total < 2)
            return 0.0;
        return static_cast<double>(neighbours) / static_cast<double>(total - 1);
    }
    }
    return 0.0;
}

// Checks the response fits the question; on success `cleaned` is what gets recorded (choice ids
// without repeats).
InputProblem check_input(const Question& question, const Response& response, Response& cleaned) {
    cleaned = response;
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: {
        if (response.choice_ids.empty())
            return InputProblem::NoChoiceSelected;
        cleaned.choice_ids.clear();
        for (const std::string& id : response.choice_ids) {
            if (question.find_choice(id) == nullptr)
                return InputProblem::UnknownChoice;
            if (!contains(cleaned.choice_ids, id))
                cleaned.choice_ids.push_back(id);
        }
        if (question.type == QuestionType::SingleChoice && cleaned.choice_ids.size() > 1)
            return InputProblem::TooManyChoices;
        return InputProblem::None;
    }
    case QuestionType::TrueFalse: return InputProblem::None;
    case QuestionType::Numeric:
        if (normalize_for_matching(response.text).empty())
            return InputProblem::EmptyText;
        return parse_number(response.text) ? InputProblem::None : InputProblem::NotANumber;
    case QuestionType::ShortText:
        return normalize_for_matching(response.text).empty() ? InputProblem::EmptyText
                                                             : InputProblem::None;
    case QuestionType::Matching: {
        // Recorded in the question's item order, one answer per item (the last given counts).
        cleaned.pairs.clear();
        for (const auto& [item_id, answer_id] : response.pairs)
            if (question.find_match_item(item_id) == nullptr || question.find_choice(answer_id) == nullptr)
                return InputProblem::UnknownChoice;
        for (const MatchItem& item : question.match_items) {
            auto given = std::find_if(response.pairs.rbegin(), response.pairs.rend(),
                                      [&](const auto& pair) { return pair.first == item.id; });
            if (given == response.pairs.rend())
                return InputProblem::Incomplete;
            cleaned.pairs.emplace_back(item.id, given->second);
        }
        return InputProblem::None;
    }
    case QuestionType::Cloze: {
        // Recorded in the question's blank order, one answer per blank (the last given counts).
        cleaned.pairs.clear();
        for (const auto& [blank_id, given] : response.pairs) {
            const Blank* blank = question.find_blank(blank_id);
            if (blank == nullptr || (blank->kind == Blank::Kind::Options && !given.empty() && !blank->find_option(given)))
                return InputProblem::UnknownChoice;
        }
        InputProblem first = InputProblem::None;
        for (const Blank& blank : question.blanks) {
            auto given = std::find_if(response.pairs.rbegin(), response.pairs.rend(),
                                      [&](const auto& pair) { return pair.first == blank.id; });
            const std::string text = given == response.pairs.rend() ? std::string() : given->second;
            const InputProblem problem = blank_input_problem(blank, text);
            if (problem != InputProblem::None && first == InputProblem::None) first = problem;
            cleaned.pairs.emplace_back(blank.id, text);
        }
        return first;
    }
    case QuestionType::Ordering: {
        for (const std::string& id : response.choice_ids)
            if (question.find_choice(id) == nullptr)
                return InputProblem::UnknownChoice;
        std::vector<std::string> seen = response.choice_ids;
        std::sort(seen.begin(), seen.end());
        const bool each_once = std::adjacent_find(seen.begin(), seen.end()) == seen.end();
        return each_once && seen.size() == question.choices.size() ? InputProblem::None : InputProblem::Incomplete;
    }
    }
    return InputProblem::None;
}

Feedback make_feedback(const SessionQuestion& slot, const Question& question,
                       const AnswerRecord& answer) {
    Feedback feedback;
    feedback.correct = answer.correct;
    feedback.score = answer.score;
    feedback.try_number = static_cast<int>(slot.wrong_tries.size()) + 1;
    feedback.hints_used = slot.hints_shown;
    feedback.correct_answer = correct_answer(question);
    feedback.explanation = question.explanation;
    if (question.type == QuestionType::Matching) {
        for (const MatchItem& item : question.match_items) {
            PartFeedback part;
            part.id = item.id;
            for (const auto& [item_id, answer_id] : answer.response.pairs)
                if (item_id == item.id) part.given = answer_id;
            part.correct = part.given == item.answer_id;
            part.feedback = item.feedback;
            feedback.parts.push_back(std::move(part));
        }
        return feedback;
    }
    if (question.type == QuestionType::Cloze) {
        for (const Blank& blank : question.blanks) {
            PartFeedback part;
            part.id = blank.id;
            for (const auto& [blank_id, given] : answer.response.pairs)
                if (blank_id == blank.id) part.given = given;
            part.correct = blank_accepts(blank, part.given);
            part.feedback = blank.feedback;
            feedback.parts.push_back(std::move(part));
        }
        return feedback;
    }
    if (question.type == QuestionType::Ordering) {
        for (std::size_t i = 0; i < answer.response.choice_ids.size(); ++i) {
            PartFeedback part;
            part.id = answer.response.choice_ids[i];
            part.correct = i < question.choices.size() && question.choices[i].id == part.id;
            feedback.parts.push_back(std::move(part));
        }
        return feedback;
    }
    for (const Choice* choice : choices_in_order(slot, question)) {
        ChoiceFeedback item;
        item.choice_id = choice->id;
        item.selected = contains(answer.response.choice_ids, choice->id);
        item.correct = choice->correct;
        if (item.selected || item.correct)
            item.feedback = choice->feedback;
        feedback.choices.push_back(std::move(item));
    }
    return feedback;
}

// What may be told after a try that was not right while tries are left: how right it was and the
// feedback of the choices picked, never what the right answer is.
Feedback try_feedback(const Bank& bank, const SessionQuestion& slot, const Question& question, const Response& response) {
    Feedback feedback;
    feedback.final = false;
    feedback.before_costs = score_response(question, response, bank.settings.partial_credit);
    feedback.score = feedback.before_costs;
    const auto at = std::find(slot.wrong_tries.begin(), slot.wrong_tries.end(), response);
    feedback.try_number = static_cast<int>(at - slot.wrong_tries.begin()) + 1;
    feedback.tries_left = max_tries(bank, question) - static_cast<int>(slot.wrong_tries.size());
    feedback.hints_used = slot.hints_shown;
    // Only choice questions have choices to pick (a matching question's are its answers).
    const bool choices = question.type == QuestionType::SingleChoice || question.type == QuestionType::MultipleChoice;
    for (const Choice* choice : choices ? choices_in_order(slot, question) : std::vector<const Choice*>{}) {
        ChoiceFeedback item;
        item.choice_id = choice->id;
        item.selected = contains(response.choice_ids, choice->id);
        if (item.selected) item.feedback = choice->feedback;
        feedback.choices.push_back(std::move(item));
    }
    return feedback;
}

Outcome outcome_of(const std::optional<AnswerRecord>& answer) {
    if (!answer)
        return Outcome::Skipped;
    if (answer->correct)
        return Outcome::Correct;
    return answer->score > 0 ? Outcome::Partial : Outcome::Wrong;
}

constexpr std::string_view outcome_names[] = {"correct", "partial", "wrong", "skipped"};

} // namespace

Response Response::choices(std::vector<std::string> choice_ids) {
    Response response;
    response.choice_ids = std::move(choice_ids);
    return response;
}

Response Response::boolean(bool value) {
    Response response;
    response.true_false = value;
    return response;
}

Response Response::typed(std::string text) {
    Response response;
    response.text = std::move(text);
    return response;
}

Response Response::matched(std::vector<std::pair<std::string, std::string>> pairs) {
    Response response;
    response.pairs = std::move(pairs);
    return response;
}

bool operator==(const Response& a, const Response& b) {
    return a.choice_ids == b.choice_ids && a.true_false == b.true_false && a.text == b.text && a.pairs == b.pairs;
}

CorrectAnswer correct_answer(const Question& question) {
    CorrectAnswer answer;
    answer.type = question.type;
    answer.choice_ids = question.correct_choice_ids();
    answer.true_false = question.true_false_answer;
    answer.numeric = question.numeric_answer;
    answer.accepted_texts = question.accepted_texts;
    for (const MatchItem& item : question.match_items) answer.pairs.emplace_back(item.id, item.answer_id);
    for (const Blank& blank : question.blanks) {  // the right choice's id; typed blanks: "" (see the blank)
        const Choice* right = blank.correct_option();
        answer.pairs.emplace_back(blank.id, right ? right->id : std::string());
    }
    return answer;
}

Session start_session(const Bank& bank, std::uint64_t seed, const SessionOptions& options) {
    Session session;
    session.bank_id = bank.id;
    session.bank_fingerprint = options.bank_fingerprint.empty() ? bank_fingerprint(bank) : options.bank_fingerprint;
    session.seed = seed;
    session.started_at_ms = options.now_ms;
    session.last_activity_ms = options.now_ms;
    session.review = options.review;

    Fnv1a attempt;
    attempt.text(bank.id);
    attempt.integer(seed);
    attempt.integer(static_cast<std::uint64_t>(options.now_ms));
    session.attempt_id = to_hex(attempt.value());

    std::vector<std::size_t> order;   // indexes into bank.questions
    for (std::size_t i = 0; i < bank.questions.size(); ++i)
        if (options.only_question_ids.empty() ||
            contains(options.only_question_ids, bank.questions[i].id))
            order.push_back(i);

    SplitMix64 question_random(stream_seed(seed, "questions"));
    const auto pool = static_cast<std::size_t>(std::max(0, bank.settings.pool_size));
    if (options.only_question_ids.empty() && pool > 0 && pool < order.size()) {
        shuffle(order, question_random);
        order.resize(pool);
        if (!bank.settings.shuffle_questions)
            std::sort(order.begin(), order.end());   // the drawn ones, in the author's order
    } else if (bank.settings.shuffle_questions) {
        shuffle(order, question_random);
    }

    session.questions.reserve(order.size());
    for (std::size_t index : order) {
        const Question& question = bank.questions[index];
        SessionQuestion slot;
        slot.question_id = question.id;
        slot.choice_order.reserve(question.choices.size());
        for (const Choice& choice : question.choices)
            slot.choice_order.push_back(choice.id);
        if (question.type == QuestionType::Cloze) {
            // Each blank's choices, as "blank/choice", shuffled within their blank with shuffleChoices.
            for (const Blank& blank : question.blanks) {
                std::vector<std::string> options;
                for (const Choice& option : blank.options) options.push_back(blank.id + "/" + option.id);
                if (bank.settings.shuffle_choices) {
                    SplitMix64 option_random(stream_seed(seed, "choices:", question.id + "/" + blank.id));
                    shuffle(options, option_random);
                }
                slot.choice_order.insert(slot.choice_order.end(), options.begin(), options.end());
            }
        }
        // A matching question's answers are always shuffled (authors write them beside their
        // items), and an ordering question's items must be: their written order is the key.
        const bool must_shuffle = question.type == QuestionType::Matching || question.type == QuestionType::Ordering;
        if (bank.settings.shuffle_choices || must_shuffle) {
            SplitMix64 choice_random(stream_seed(seed, "choices:", question.id));
            shuffle(slot.choice_order, choice_random);
        }
        if (question.type == QuestionType::Ordering && slot.choice_order.size() > 1 &&
            std::equal(slot.choice_order.begin(), slot.choice_order.end(), question.choices.begin(),
                       [](const std::string& id, const Choice& item) { return id == item.id; }))
            std::rotate(slot.choice_order.begin(), slot.choice_order.begin() + 1, slot.choice_order.end());
        session.questions.push_back(std::move(slot));
    }
    return session;
}

void resume_session(Session& session, std::int64_t now_ms) {
    session.last_activity_ms = now_ms;
}

bool session_matches_bank(const Session& session, const Bank& bank, std::string_view fingerprint) {
    if (session.bank_id != bank.id ||
        (fingerprint.empty() ? session.bank_fingerprint != bank_fingerprint(bank) : session.bank_fingerprint != fingerprint) ||
        session.current > session.questions.size())
        return false;
    for (const SessionQuestion& slot : session.questions) {
        const Question* question = bank.find_question(slot.question_id);
        if (question == nullptr || slot.hints_shown > question->hints.size() ||
            static_cast<int>(slot.wrong_tries.size()) >= max_tries(bank, *question))
            return false;
        if (question->type == QuestionType::Cloze) {
            std::size_t options = 0;
            for (const Blank& blank : question->blanks) options += blank.options.size();
            if (slot.choice_order.size() != options)
                return false;
            for (const std::string& key : slot.choice_order) {
                const std::size_t slash = key.find('/');
                const Blank* blank = slash == std::string::npos ? nullptr : question->find_blank(std::string_view(key).substr(0, slash));
                if (blank == nullptr || blank->find_option(std::string_view(key).substr(slash + 1)) == nullptr)
                    return false;
            }
            continue;
        }
        if (slot.choice_order.size() != question->choices.size())
            return false;
        for (const std::string& id : slot.choice_order)
            if (question->find_choice(id) == nullptr)
                return false;
    }
    return true;
}

bool is_finished(const Session& session) {
    return session.current >= session.questions.size();
}

const Question* current_question(const Session& session, const Bank& bank) {
    if (is_finished(session))
        return nullptr;
    return bank.find_question(session.questions[session.current].question_id);
}

std::vector<const Choice*> options_in_order(const SessionQuestion& slot, const Blank& blank) {
    std::vector<const Choice*> result;
    const std::string prefix = blank.id + "/";
    for (const std::string& key : slot.choice_order)
        if (key.size() > prefix.size() && key.compare(0, prefix.size(), prefix) == 0)
            if (const Choice* option = blank.find_option(std::string_view(key).substr(prefix.size())))
                result.push_back(option);
    return result;
}

bool blank_accepts(const Blank& blank, std::string_view given) {
    switch (blank.kind) {
    case Blank::Kind::Typed: return accepted_text_matches(blank.accepted_texts, given);
    case Blank::Kind::Numeric: {
        const auto number = parse_number(given);
        return number && blank.numeric_answer.accepts(*number);
    }
    case Blank::Kind::Options: {
        const Choice* option = blank.find_option(given);
        return option != nullptr && option->correct;
    }
    }
    return false;
}

InputProblem blank_input_problem(const Blank& blank, std::string_view given) {
    if (normalize_for_matching(given).empty())
        return blank.kind == Blank::Kind::Options ? InputProblem::Incomplete : InputProblem::EmptyText;
    if (blank.kind == Blank::Kind::Numeric && !parse_number(given))
        return InputProblem::NotANumber;
    if (blank.kind == Blank::Kind::Options && !blank.find_option(given))
        return InputProblem::UnknownChoice;
    return InputProblem::None;
}

std::vector<const Choice*> choices_in_order(const SessionQuestion& slot, const Question& question) {
    std::vector<const Choice*> result;
    for (const std::string& id : slot.choice_order)
        if (const Choice* choice = question.find_choice(id))
            result.push_back(choice);
    return result;
}

std::size_t answered_count(const Session& session) {
    return static_cast<std::size_t>(
        std::count_if(session.questions.begin(), session.questions.end(),
                      [](const SessionQuestion& slot) { return slot.answer.has_value(); }));
}

Feedback check(Session& session, const Bank& bank, const Response& response,
               std::int64_t now_ms) {
    Feedback refused;
    const Question* question = current_question(session, bank);
    if (question == nullptr) {
        refused.problem = InputProblem::NoCurrentQuestion;
        return refused;
    }
    SessionQuestion& slot = session.questions[session.current];
    if (slot.answer) {
        Feedback previous = make_feedback(slot, *question, *slot.answer);
        previous.problem = InputProblem::AlreadyAnswered;
        return previous;
    }
    Response cleaned;
    refused.problem = check_input(*question, response, cleaned);
    if (refused.problem != InputProblem::None)
        return refused;

    advance_clock(session, now_ms);
    const double score = score_response(*question, cleaned, bank.settings.partial_credit);
    const bool right = score == 1.0;
    // The same wrong answer again is that try again: it costs nothing and tells the same.
    const bool repeated = std::find(slot.wrong_tries.begin(), slot.wrong_tries.end(), cleaned) != slot.wrong_tries.end();
    if (!right && (repeated || static_cast<int>(slot.wrong_tries.size()) + 1 < max_tries(bank, *question))) {
        if (!repeated) slot.wrong_tries.push_back(cleaned);
        return try_feedback(bank, slot, *question, cleaned);
    }
    const int tries = static_cast<int>(slot.wrong_tries.size()) + 1;
    AnswerRecord answer;
    answer.score = score * points_kept(bank, *question, slot.hints_shown, tries);
    answer.correct = right;
    answer.response = std::move(cleaned);
    answer.answered_at_ms = now_ms;
    slot.answer = std::move(answer);
    Feedback feedback = make_feedback(slot, *question, *slot.answer);
    feedback.before_costs = score;
    return feedback;
}

double points_kept(const Bank& bank, const Question& question, std::size_t hints_shown, int tries) {
    double kept = 1.0 - try_penalty(bank, question) * std::max(0, tries - 1);
    for (std::size_t i = 0; i < hints_shown && i < question.hints.size(); ++i) kept -= question.hints[i].cost;
    return std::max(0.0, kept);
}

bool reveal_hint(Session& session, const Bank& bank, std::int64_t now_ms) {
    const Question* question = current_question(session, bank);
    if (question == nullptr) return false;
    SessionQuestion& slot = session.questions[session.current];
    if (slot.answer || slot.hints_shown >= question->hints.size()) return false;
    advance_clock(session, now_ms);
    ++slot.hints_shown;
    return true;
}

std::optional<Feedback> last_try_feedback(const Session& session, const Bank& bank) {
    const Question* question = current_question(session, bank);
    if (question == nullptr) return std::nullopt;
    const SessionQuestion& slot = session.questions[session.current];
    if (slot.answer || slot.wrong_tries.empty()) return std::nullopt;
    return try_feedback(bank, slot, *question, slot.wrong_tries.back());
}

std::optional<Feedback> current_feedback(const Session& session, const Bank& bank) {
    const Question* question = current_question(session, bank);
    if (question == nullptr)
        return std::nullopt;
    const SessionQuestion& slot = session.questions[session.current];
    if (!slot.answer)
        return std::nullopt;
    Feedback feedback = make_feedback(slot, *question, *slot.answer);
    feedback.before_costs = score_response(*question, slot.answer->response, bank.settings.partial_credit);
    return feedback;
}

void next(Session& session, std::int64_t now_ms) {
    advance_clock(session, now_ms);
    if (!is_finished(session))
        ++session.current;
}

bool record_exam_answer(Session& session, const Bank& bank, std::size_t index, const std::optional<Response>& response,
                        std::int64_t now_ms) {
    if (is_finished(session) || index >= session.questions.size()) return false;
    SessionQuestion& slot = session.questions[index];
    const Question* question = bank.find_question(slot.question_id);
    if (question == nullptr) return false;
    advance_clock(session, now_ms);
    Response cleaned;
    const InputProblem problem = response ? check_input(*question, *response, cleaned) : InputProblem::EmptyText;
    if (problem == InputProblem::NotANumber) {
        cleaned = *response;   // kept as typed: the learner sees it again, and it scores 0
    } else if (problem != InputProblem::None) {
        slot.answer.reset();
        return true;
    }
    const double score = problem == InputProblem::None ? score_response(*question, cleaned, bank.settings.partial_credit) : 0.0;
    AnswerRecord answer;
    answer.score = score * points_kept(bank, *question, slot.hints_shown, 1);
    answer.correct = score == 1.0;
    answer.response = std::move(cleaned);
    answer.answered_at_ms = now_ms;
    slot.answer = std::move(answer);
    return true;
}

bool go_to_question(Session& session, std::size_t index, std::int64_t now_ms) {
    if (is_finished(session) || index >= session.questions.size()) return false;
    advance_clock(session, now_ms);
    session.current = index;
    return true;
}

bool toggle_flag(Session& session, std::size_t index) {
    if (is_finished(session) || index >= session.questions.size()) return false;
    session.questions[index].flagged = !session.questions[index].flagged;
    return true;
}

std::vector<std::size_t> unanswered_questions(const Session& session) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < session.questions.size(); ++i)
        if (!session.questions[i].answer) out.push_back(i);
    return out;
}

void submit_exam(Session& session, std::int64_t now_ms) {
    advance_clock(session, now_ms);
    session.current = session.questions.size();
}

std::optional<std::int64_t> exam_time_left_ms(const Session& session, const Bank& bank, std::int64_t now_ms) {
    if (bank.settings.mode != Settings::Mode::Exam || !(bank.settings.time_limit_minutes > 0)) return std::nullopt;
    const auto limit = static_cast<std::int64_t>(std::llround(bank.settings.time_limit_minutes * 60'000.0));
    const std::int64_t spent = std::max<std::int64_t>(0, now_ms - session.started_at_ms);
    return std::max<std::int64_t>(0, limit - spent);
}

std::string_view to_string(Outcome outcome) {
    return outcome_names[static_cast<int>(outcome)];
}

std::optional<Outcome> outcome_from_string(std::string_view name) {
    for (int i = 0; i < 4; ++i)
        if (outcome_names[i] == name)
            return static_cast<Outcome>(i);
    return std::nullopt;
}

Results results(const Session& session, const Bank& bank) {
    Results result;
    result.attempt_id = session.attempt_id;
    result.pass_percent = bank.settings.pass_percent;
    result.started_at_ms = session.started_at_ms;
    result.duration_ms = session.elapsed_ms;
    result.review = session.review;
    for (const SessionQuestion& slot : session.questions) {
        QuestionResult question_result;
        question_result.question_id = slot.question_id;
        question_result.outcome = outcome_of(slot.answer);
        if (slot.answer) {
            question_result.score = slot.answer->score;
            question_result.response = slot.answer->response;
        }
        question_result.tries = static_cast<int>(slot.wrong_tries.size()) + (slot.answer ? 1 : 0);
        question_result.hints_used = slot.hints_shown;
        if (const Question* question = bank.find_question(slot.question_id))
            question_result.correct_answer = correct_answer(*question);
        result.score += question_result.score;
        result.questions.push_back(std::move(question_result));
    }
    result.max_score = static_cast<double>(session.questions.size());
    result.percent = result.max_score > 0 ? 100.0 * result.score / result.max_score : 0.0;
    // The slack keeps 7/10 = 69.99999... from failing a 70% mark.
    result.passed = result.max_score > 0 && result.percent + 1e-9 >= result.pass_percent;
    return result;
}

std::vector<std::string> missed_question_ids(const Results& results) {
    std::vector<std::string> ids;
    for (const QuestionResult& question : results.questions)
        if (question.outcome != Outcome::Correct)
            ids.push_back(question.question_id);
    return ids;
}

Session retry_all(const Bank& bank, std::uint64_t seed, std::int64_t now_ms) {
    SessionOptions options;
    options.now_ms = now_ms;
    return start_session(bank, seed, options);
}

Session retry_missed(const Bank& bank, const Results& previous, std::uint64_t seed,
                     std::int64_t now_ms) {
    SessionOptions options;
    options.only_question_ids = missed_question_ids(previous);
    options.now_ms = now_ms;
    options.review = true;
    if (options.only_question_ids.empty()) {
        Session empty = start_session(bank, seed, options);
        empty.questions.clear();   // nothing was missed: an attempt with nothing to do
        return empty;
    }
    return start_session(bank, seed, options);
}

std::optional<double> parse_number(std::string_view text) {
    const auto is_blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && is_blank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && is_blank(text.back()))
        text.remove_suffix(1);

    bool negative = false;
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    } else if (text.substr(0, 3) == "\xE2\x88\x92") {   // U+2212 MINUS SIGN, as typeset
        negative = true;
        text.remove_prefix(3);
    }

    std::string digits;   // significant digits, leading zeros dropped
    int exponent = 0;     // value = digits * 10^exponent
    int digit_count = 0;
    bool seen_separator = false;
    std::size_t i = 0;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            ++digit_count;
            if (digits.empty() && c == '0') {
                if (seen_separator)
                    --exponent;
                continue;
            }
            if (digits.size() < 19) {
                digits.push_back(c);
                if (seen_separator)
                    --exponent;
            } else if (!seen_separator) {
                ++exponent;   // beyond 19 digits: keep the magnitude, drop the precision
            }
        } else if ((c == '.' || c == ',') && !seen_separator) {
            seen_separator = true;
        } else {
            break;
        }
    }
    if (digit_count == 0)
        return std::nullopt;
    if (i < text.size()) {
        if (text[i] != 'e' && text[i] != 'E')
            return std::nullopt;
        ++i;
        bool negative_exponent = false;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            negative_exponent = text[i++] == '-';
        if (i == text.size())
            return std::nullopt;
        int written = 0;
        for (; i < text.size(); ++i) {
            if (text[i] < '0' || text[i] > '9')
                return std::nullopt;
            if (written < 100000)
                written = written * 10 + (text[i] - '0');
        }
        exponent += negative_exponent ? -written : written;
    }

    std::uint64_t mantissa = 0;
    for (char c : digits)
        mantissa = mantissa * 10 + static_cast<std::uint64_t>(c - '0');
    double value = 0;
    if (mantissa != 0) {
        // Exact powers of ten up to 1e22: m / 10^k with m < 2^53 is then correctly rounded,
        // so "3.55" is the same double as the literal 3.55, on every platform.
        static constexpr double exact_powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,
                                                  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
                                                  1e18, 1e19, 1e20, 1e21, 1e22};
        const double m = static_cast<double>(mantissa);
        if (mantissa <= (1ULL << 53) && exponent >= -22 && exponent <= 22)
            value = exponent >= 0 ? m * exact_powers[exponent] : m / exact_powers[-exponent];
        else if (exponent < -400)
            value = 0;
        else if (exponent > 400)
            return std::nullopt;
        else
            value = m * std::pow(10.0, exponent);
    }
    if (!std::isfinite(value))
        return std::nullopt;
    return negative ? -value : value;
}

bool short_text_matches(const Question& question, std::string_view typed) {
    return accepted_text_matches(question.accepted_texts, typed);
}

bool accepted_text_matches(const std::vector<LocalizedText>& accepted_texts, std::string_view typed) {
    const std::string normalized = normalize_for_matching(typed);
    if (normalized.empty())
        return false;
    for (const LocalizedText& accepted : accepted_texts) {
        if (accepted.is_plain() && normalize_for_matching(accepted.plain()) == normalized)
            return true;
        for (const auto& translation : accepted.translations())
            if (normalize_for_matching(translation.second) == normalized)
                return true;
    }
    return false;
}

} // namespace imquiz

namespace imquiz {

InputProblem response_problem(const Question& question, const Response& response) {
    Response cleaned;
    return check_input(question, response, cleaned);
}

std::string continued_attempt_id(const std::string& attempt_id, std::uint64_t random) {
    return attempt_id.substr(0, attempt_id.find('.')) + "." + to_hex(random).substr(8);
}

} // namespace imquiz
