#include "app/format.h"

#include "app/bank_texts.h"
#include "app/cloze_text.h"
#include "app/civil_time.h"

#include "engine/unicode.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace imquiz::app {

std::string format_points(double value) {
    char buffer[32];
    if (std::fabs(value - std::round(value)) < 1e-9)
        std::snprintf(buffer, sizeof buffer, "%d", static_cast<int>(std::lround(value)));
    else
        std::snprintf(buffer, sizeof buffer, "%.2f", value);
    return buffer;
}

std::string format_percent(double percent, std::optional<double> failed_below) {
    const long rounded = std::lround(percent);
    const bool reaches_full = rounded >= 100 && percent < 100;
    const bool reaches_mark = failed_below && rounded >= *failed_below;
    if (!reaches_full && !reaches_mark)
        return std::to_string(rounded) + "%";
    // One decimal, cut rather than rounded, so that it stays below what it did not reach.
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f%%", std::floor(percent * 10) / 10);
    return buffer;
}

std::string format_duration(std::int64_t ms) {
    long long seconds = static_cast<long long>(std::max<std::int64_t>(ms, 0) / 1000);
    char buffer[32];
    if (seconds >= 3600)
        std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld", seconds / 3600, seconds / 60 % 60, seconds % 60);
    else
        std::snprintf(buffer, sizeof buffer, "%lld:%02lld", seconds / 60, seconds % 60);
    return buffer;
}

std::string format_date(std::int64_t unix_ms) {
    CivilTime t = civil_time(unix_ms);
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02d", t.year, t.month, t.day);
    return buffer;
}

std::string format_iso8601(std::int64_t unix_ms) {
    CivilTime t = civil_time(unix_ms);
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", t.year, t.month, t.day, t.hour,
                  t.minute, t.second, t.millisecond);
    return buffer;
}

std::string format_int(const char* format, int value) {
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

std::string format_int2(const char* format, int first, int second) {
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, format, first, second);
    return buffer;
}

std::string format_text(const char* format, const std::string& value) {
    std::string text = format;
    const std::size_t at = text.find("%s");
    if (at != std::string::npos) text.replace(at, 2, value);
    return text;
}

std::string format_numeric_answer(const NumericAnswer& answer) {
    char buffer[96];
    if (answer.form == NumericAnswer::Form::Range)
        std::snprintf(buffer, sizeof buffer, "%g – %g", answer.min, answer.max);
    else if (answer.tolerance > 0)
        std::snprintf(buffer, sizeof buffer, "%g ± %g", answer.value, answer.tolerance);
    else
        std::snprintf(buffer, sizeof buffer, "%g", answer.value);
    return buffer;
}

namespace {

// "All-reduce – Sum on every rank": an item and its answer (Noto Sans has no arrows).
std::vector<std::string> pair_words(const Bank& bank, const Question& question,
                                    const std::vector<std::pair<std::string, std::string>>& pairs,
                                    const std::string& content_language) {
    std::vector<std::string> out;
    for (const auto& [item_id, answer_id] : pairs) {
        const MatchItem* item = question.find_match_item(item_id);
        const Choice* answer = question.find_choice(answer_id);
        if (item && answer)
            out.push_back(text_words(bank, item->text, content_language) + " – " + text_words(bank, answer->text, content_language));
    }
    return out;
}

// "1. Forward pass": each item at its place.
std::vector<std::string> order_words(const Bank& bank, const Question& question, const std::vector<std::string>& order,
                                     const std::string& content_language) {
    std::vector<std::string> out;
    for (const std::string& id : order)
        if (const Choice* item = question.find_choice(id))
            out.push_back(std::to_string(out.size() + 1) + ". " + text_words(bank, item->text, content_language));
    return out;
}

// "1: all-reduce": each blank's number (in the prompt's order) and what fills it: `given` (as
// typed, or a choice's id), or with no `given` its right answer.
std::vector<std::string> blank_words(const Bank& bank, const Question& question,
                                     const std::vector<std::pair<std::string, std::string>>* given,
                                     const std::string& content_language) {
    std::vector<std::string> out;
    int number = 0;
    for (const Blank* blank : blanks_in_prompt_order(bank, question, content_language)) {
        ++number;
        std::string words;
        if (given) {
            for (const auto& [blank_id, value] : *given)
                if (blank_id == blank->id) words = value;
            if (const Choice* option = blank->kind == Blank::Kind::Options ? blank->find_option(words) : nullptr)
                words = text_words(bank, option->text, content_language);
            else
                words = neutralize_for_display(words);
        } else if (blank->kind == Blank::Kind::Options) {
            if (const Choice* option = blank->correct_option()) words = text_words(bank, option->text, content_language);
        } else if (blank->kind == Blank::Kind::Numeric) {
            words = format_numeric_answer(blank->numeric_answer);
        } else if (!blank->accepted_texts.empty()) {
            words = neutralize_for_display(bank.text(blank->accepted_texts.front(), content_language));
        }
        out.push_back(std::to_string(number) + ": " + (words.empty() ? "–" : words));
    }
    return out;
}

}  // namespace

std::vector<std::string> correct_answer_texts(const Bank& bank, const Question& question, const CorrectAnswer& answer,
                                              const std::string& content_language, Language language) {
    std::vector<std::string> out;
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice:
        for (const auto& id : answer.choice_ids)
            if (const Choice* choice = question.find_choice(id))
                out.push_back(text_words(bank, choice->text, content_language));
        break;
    case QuestionType::TrueFalse: out.push_back(tr(language, answer.true_false ? Str::TrueLabel : Str::FalseLabel)); break;
    case QuestionType::Numeric: out.push_back(format_numeric_answer(answer.numeric)); break;
    case QuestionType::ShortText:
        if (!answer.accepted_texts.empty())
            out.push_back(neutralize_for_display(bank.text(answer.accepted_texts.front(), content_language)));
        break;
    case QuestionType::Matching: out = pair_words(bank, question, answer.pairs, content_language); break;
    case QuestionType::Ordering: out = order_words(bank, question, answer.choice_ids, content_language); break;
    case QuestionType::Cloze: out = blank_words(bank, question, nullptr, content_language); break;
    }
    return out;
}

std::optional<std::string> response_words(const Bank& bank, const Question& question,
                                          const std::optional<Response>& response,
                                          const std::string& content_language, Language language) {
    if (!response) return std::nullopt;
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: {
        std::vector<std::string> chosen;
        for (const auto& id : response->choice_ids)
            if (const Choice* choice = question.find_choice(id))
                chosen.push_back(text_words(bank, choice->text, content_language));
        if (chosen.empty()) return std::nullopt;
        return join(chosen, "; ");
    }
    case QuestionType::TrueFalse: return std::string(tr(language, response->true_false ? Str::TrueLabel : Str::FalseLabel));
    case QuestionType::Matching: {
        std::vector<std::string> pairs = pair_words(bank, question, response->pairs, content_language);
        if (pairs.empty()) return std::nullopt;
        return join(pairs, "; ");
    }
    case QuestionType::Ordering: {
        std::vector<std::string> order = order_words(bank, question, response->choice_ids, content_language);
        if (order.empty()) return std::nullopt;
        return join(order, "; ");
    }
    case QuestionType::Cloze:
        if (response->pairs.empty()) return std::nullopt;
        return join(blank_words(bank, question, &response->pairs, content_language), "; ");
    default: return neutralize_for_display(response->text);
    }
}

std::string join(const std::vector<std::string>& parts, const char* separator) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
    return out;
}

std::string as_sentence(const std::string& text) {
    std::size_t end = text.find_last_not_of(" \t\n");
    if (end == std::string::npos) return {};
    std::string trimmed = text.substr(text.find_first_not_of(" \t\n"), std::string::npos);
    trimmed.erase(trimmed.find_last_not_of(" \t\n") + 1);
    // Already ends a sentence: . ! ? … : ; ) » " ” (the last four as UTF-8).
    static const char* const endings[] = {".", "!", "?", ":", ";", ")", "\"", "\xE2\x80\xA6", "\xC2\xBB", "\xE2\x80\x9D"};
    for (const char* ending : endings) {
        std::string e = ending;
        if (trimmed.size() >= e.size() && trimmed.compare(trimmed.size() - e.size(), e.size(), e) == 0) return trimmed;
    }
    return trimmed + ".";
}

}  // namespace imquiz::app
