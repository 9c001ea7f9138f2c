#include "engine/bank.h"

#include "engine/hash.h"
#include "engine/ids.h"
#include "engine/unicode.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>

namespace imquiz {
namespace {

constexpr std::string_view question_type_names[] = {"single_choice", "multiple_choice", "true_false",
                                                     "numeric",       "short_text",      "matching",
                                                     "ordering",      "cloze"};
constexpr int question_type_count = static_cast<int>(std::size(question_type_names));

// Every translation of every accepted text, normalized as they are compared, each once.
void hash_accepted(Fnv1a& hash, const std::vector<LocalizedText>& texts) {
    std::vector<std::string> accepted;
    for (const LocalizedText& text : texts) {
        if (text.is_plain())
            accepted.push_back(normalize_for_matching(text.plain()));
        for (const auto& translation : text.translations())
            accepted.push_back(normalize_for_matching(translation.second));
    }
    std::sort(accepted.begin(), accepted.end());
    accepted.erase(std::unique(accepted.begin(), accepted.end()), accepted.end());
    hash.integer(accepted.size());
    for (const std::string& text : accepted)
        hash.text(text);
}

void hash_question(Fnv1a& hash, const Question& question) {
    hash.text(question.id);
    hash.text(to_string(question.type));
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: {
        // By id; on the stack when there are few (a loaded bank has at most 26).
        using IdAndCorrect = std::pair<std::string_view, bool>;
        std::array<IdAndCorrect, 26> few;
        std::vector<IdAndCorrect> many;
        const std::size_t count = question.choices.size();
        IdAndCorrect* choices = few.data();
        if (count > few.size()) {
            many.resize(count);
            choices = many.data();
        }
        for (std::size_t i = 0; i < count; ++i)
            choices[i] = {question.choices[i].id, question.choices[i].correct};
        std::sort(choices, choices + count);
        hash.integer(count);
        for (std::size_t i = 0; i < count; ++i) {
            hash.text(choices[i].first);
            hash.integer(choices[i].second ? 1 : 0);
        }
        break;
    }
    case QuestionType::TrueFalse:
        hash.integer(question.true_false_answer ? 1 : 0);
        break;
    case QuestionType::Numeric:
        hash.number(question.numeric_answer.lowest());
        hash.number(question.numeric_answer.highest());
        break;
    case QuestionType::ShortText:
        hash_accepted(hash, question.accepted_texts);
        break;
    case QuestionType::Matching: {
        // Which answers there are (by id) and which item goes with which.
        std::vector<std::string_view> answers;
        for (const Choice& choice : question.choices) answers.push_back(choice.id);
        std::sort(answers.begin(), answers.end());
        hash.integer(answers.size());
        for (std::string_view id : answers) hash.text(id);
        std::vector<std::pair<std::string_view, std::string_view>> pairs;
        for (const MatchItem& item : question.match_items) pairs.emplace_back(item.id, item.answer_id);
        std::sort(pairs.begin(), pairs.end());
        hash.integer(pairs.size());
        for (const auto& [item, answer] : pairs) {
            hash.text(item);
            hash.text(answer);
        }
        break;
    }
    case QuestionType::Ordering:
        // The right order is the key itself.
        hash.integer(question.choices.size());
        for (const Choice& item : question.choices) hash.text(item.id);
        break;
    case QuestionType::Cloze:
        // Each blank (by id, in prompt order: moving a blank moves what is asked) and its key.
        hash.integer(question.blanks.size());
        for (const Blank& blank : question.blanks) {
            hash.text(blank.id);
            hash.integer(static_cast<int>(blank.kind));
            switch (blank.kind) {
            case Blank::Kind::Typed: hash_accepted(hash, blank.accepted_texts); break;
            case Blank::Kind::Numeric:
                hash.number(blank.numeric_answer.lowest());
                hash.number(blank.numeric_answer.highest());
                break;
            case Blank::Kind::Options: {
                std::vector<std::string_view> ids;
                for (const Choice& option : blank.options) ids.push_back(option.id);
                std::sort(ids.begin(), ids.end());
                hash.integer(ids.size());
                for (std::string_view id : ids) hash.text(id);
                const Choice* right = blank.correct_option();
                hash.text(right ? std::string_view(right->id) : std::string_view());
                break;
            }
            }
        }
        break;
    }
    // What a hint or a try costs decides scores too; a question with neither hashes as before.
    if (!question.hints.empty() || question.max_tries || question.try_penalty) {
        hash.text("tries-and-hints");
        hash.integer(question.hints.size());
        for (const Hint& hint : question.hints) hash.number(hint.cost);
        hash.integer(static_cast<std::uint64_t>(question.max_tries.value_or(0)));
        hash.number(question.try_penalty.value_or(-1));
    }
}

} // namespace

std::string_view to_string(QuestionType type) {
    return question_type_names[static_cast<int>(type)];
}

std::optional<QuestionType> question_type_from_string(std::string_view name) {
    for (int i = 0; i < question_type_count; ++i)
        if (question_type_names[i] == name)
            return static_cast<QuestionType>(i);
    return std::nullopt;
}

double NumericAnswer::lowest() const {
    return form == Form::Range ? min : value - tolerance;
}

double NumericAnswer::highest() const {
    return form == Form::Range ? max : value + tolerance;
}

bool NumericAnswer::accepts(double number) const {
    if (!std::isfinite(number))
        return false;
    const double low = lowest();
    const double high = highest();
    // 1e-9 relative: 3.55 entered for 3.5 ± 0.05 lands a hair outside in binary.
    const double slack = 1e-9 * std::max({1.0, std::fabs(low), std::fabs(high)});
    return number >= low - slack && number <= high + slack;
}

const Choice* Question::find_choice(std::string_view choice_id) const {
    for (const Choice& choice : choices)
        if (choice.id == choice_id)
            return &choice;
    return nullptr;
}

const MatchItem* Question::find_match_item(std::string_view item_id) const {
    for (const MatchItem& item : match_items)
        if (item.id == item_id)
            return &item;
    return nullptr;
}

const Blank* Question::find_blank(std::string_view blank_id) const {
    for (const Blank& blank : blanks)
        if (blank.id == blank_id)
            return &blank;
    return nullptr;
}

const Choice* Blank::find_option(std::string_view option_id) const {
    for (const Choice& option : options)
        if (option.id == option_id)
            return &option;
    return nullptr;
}

const Choice* Blank::correct_option() const {
    for (const Choice& option : options)
        if (option.correct)
            return &option;
    return nullptr;
}

std::vector<ClozePiece> split_cloze(std::string_view prompt) {
    std::vector<ClozePiece> pieces;
    std::string text;
    std::size_t at = 0;
    while (at < prompt.size()) {
        const std::size_t open = prompt.find("{{", at);
        if (open == std::string_view::npos) break;
        const std::size_t close = prompt.find("}}", open + 2);
        if (close == std::string_view::npos) break;
        const std::string_view id = prompt.substr(open + 2, close - open - 2);
        if (!is_slug(id) || id.size() > max_id_length) {
            // Not a blank ("{{ x }}", "{{{"): literal text, looked at again from the next brace.
            text.append(prompt.substr(at, open + 1 - at));
            at = open + 1;
            continue;
        }
        text.append(prompt.substr(at, open - at));
        pieces.push_back({std::move(text), std::string(id)});
        text.clear();
        at = close + 2;
    }
    text.append(prompt.substr(std::min(at, prompt.size())));
    pieces.push_back({std::move(text), std::string()});
    return pieces;
}

std::vector<std::string> Question::correct_choice_ids() const {
    std::vector<std::string> ids;
    for (const Choice& choice : choices)
        if (choice.correct || type == QuestionType::Ordering)  // ordering: the right order
            ids.push_back(choice.id);
    return ids;
}

const Question* Bank::find_question(std::string_view question_id) const {
    const auto hash_of = [](std::string_view id) {
        Fnv1a hash;
        hash.text(id);
        return hash.value();
    };
    if (question_index_.size() != questions.size()) {
        question_index_.clear();
        question_index_.reserve(questions.size());
        for (std::size_t i = 0; i < questions.size(); ++i)
            question_index_.emplace_back(hash_of(questions[i].id), static_cast<std::uint32_t>(i));
        std::sort(question_index_.begin(), question_index_.end());
    }
    const std::uint64_t hash = hash_of(question_id);
    auto at = std::lower_bound(question_index_.begin(), question_index_.end(), std::make_pair(hash, std::uint32_t{0}));
    for (; at != question_index_.end() && at->first == hash; ++at)
        if (at->second < questions.size() && questions[at->second].id == question_id)
            return &questions[at->second];
    // Not in the index: absent, or `questions` was edited in place since it was built.
    for (const Question& question : questions)
        if (question.id == question_id)
            return &question;
    return nullptr;
}

const ScoreRange* Bank::feedback_range(double percent) const {
    // 66.7% reads as 66% here: a range "from 67" is not reached before 67%.
    const int whole = static_cast<int>(std::floor(percent + 1e-9));
    for (const ScoreRange& range : feedback_ranges)
        if (whole >= range.from && whole <= range.to)
            return &range;
    return nullptr;
}

int max_tries(const Bank& bank, const Question& question) {
    return std::max(1, question.max_tries.value_or(bank.settings.max_tries));
}

double try_penalty(const Bank& bank, const Question& question) {
    return question.try_penalty.value_or(bank.settings.try_penalty);
}

const std::string& Bank::text(const LocalizedText& text, std::string_view language) const {
    return text.get(language, default_language);
}

std::string question_fingerprint(const Question& question) {
    Fnv1a hash;
    hash.text("imquiz-question-fingerprint-1");
    hash_question(hash, question);
    return to_hex(hash.value()).substr(0, 8);
}

int max_attempts(const Bank& bank) {
    if (bank.settings.mode != Settings::Mode::Exam) return 0;
    return bank.settings.max_attempts.value_or(1);
}

std::string bank_fingerprint(const Bank& bank) {
    Fnv1a hash;
    hash.text("imquiz-bank-fingerprint-1");
    hash.integer(static_cast<std::uint64_t>(bank.settings.pass_percent));
    hash.integer(bank.settings.partial_credit ? 1 : 0);
    // An exam's attempt is not a practice one: switching the mode starts afresh.
    if (bank.settings.mode == Settings::Mode::Exam) hash.text("exam");
    if (bank.settings.max_tries != 1) {
        hash.text("max-tries");
        hash.integer(static_cast<std::uint64_t>(bank.settings.max_tries));
        hash.number(bank.settings.try_penalty);
    }
    // By id: reordering questions does not change how any of them is scored. Sorted on the ids'
    // first eight bytes as a number, the whole ids only where those are equal: a string
    // comparison per step made this sort most of starting a 10,000-question attempt.
    struct ByIdKey {
        std::uint64_t prefix;   // big-endian, zero-padded: orders as the ids' first bytes do
        const Question* question;
    };
    std::vector<ByIdKey> questions;
    questions.reserve(bank.questions.size());
    for (const Question& question : bank.questions) {
        std::uint64_t prefix = 0;
        for (std::size_t i = 0; i < 8; ++i)
            prefix = (prefix << 8) |
                     (i < question.id.size() ? static_cast<unsigned char>(question.id[i]) : 0u);
        questions.push_back({prefix, &question});
    }
    std::sort(questions.begin(), questions.end(), [](const ByIdKey& a, const ByIdKey& b) {
        return a.prefix != b.prefix ? a.prefix < b.prefix : a.question->id < b.question->id;
    });
    hash.integer(questions.size());
    for (const ByIdKey& entry : questions)
        hash_question(hash, *entry.question);

    return to_hex(hash.value());
}

} // namespace imquiz
