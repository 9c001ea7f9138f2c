// Shared by the engine's unit tests: small valid banks to start from, and diagnostic helpers.
#pragma once

#include "engine/bank_loader.h"
#include "engine/diagnostics.h"
#include "engine/progress.h"
#include "engine/session.h"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz::testing {

// The clock of the tests that move time over weeks: one day, and where they begin.
constexpr std::int64_t day = 86'400'000;
constexpr std::int64_t start = 1'767'225'600'000;   // 2026-01-01T00:00:00Z

// A valid bank (languages en + ru) around the given questions array and settings object.
inline std::string bank_json(std::string_view questions, std::string_view settings = "{}") {
    return R"({
  "format": "imquiz-bank",
  "version": 1,
  "id": "sample",
  "title": {"en": "Sample", "ru": "Пример"},
  "languages": ["en", "ru"],
  "defaultLanguage": "en",
  "settings": )" + std::string(settings) + R"(,
  "questions": )" + std::string(questions) + "\n}";
}

// One question of each type, every text in both languages.
inline const char* const five_questions = R"([
  {"id": "capital", "type": "single_choice",
   "prompt": {"en": "Capital of France?", "ru": "Столица Франции?"},
   "explanation": {"en": "Paris.", "ru": "Париж."},
   "choices": [
     {"id": "paris", "text": {"en": "Paris", "ru": "Париж"}, "correct": true},
     {"id": "lyon", "text": {"en": "Lyon", "ru": "Лион"},
      "feedback": {"en": "Second city.", "ru": "Второй город."}},
     {"id": "nice", "text": "Nice"}
   ]},
  {"id": "primes", "type": "multiple_choice",
   "prompt": {"en": "Primes?", "ru": "Простые?"},
   "explanation": {"en": "2, 3, 5.", "ru": "2, 3, 5."},
   "choices": [
     {"id": "two", "text": "2", "correct": true},
     {"id": "three", "text": "3", "correct": true},
     {"id": "four", "text": "4", "feedback": {"en": "2 x 2.", "ru": "2 x 2."}},
     {"id": "five", "text": "5", "correct": true}
   ]},
  {"id": "earth-flat", "type": "true_false",
   "prompt": {"en": "The Earth is flat.", "ru": "Земля плоская."},
   "explanation": {"en": "No.", "ru": "Нет."},
   "answer": false},
  {"id": "pi", "type": "numeric",
   "prompt": {"en": "Pi to two places?", "ru": "Пи до сотых?"},
   "explanation": {"en": "3.14.", "ru": "3,14."},
   "answer": {"value": 3.14, "tolerance": 0.005},
   "unit": {"en": "none", "ru": "нет"}},
  {"id": "hedgehog", "type": "short_text",
   "prompt": {"en": "Name the animal.", "ru": "Назовите животное."},
   "explanation": {"en": "A hedgehog.", "ru": "Ёж."},
   "accept": [{"en": "hedgehog", "ru": "ёж"}, "Erinaceus"],
   "tags": ["animals"]}
])";

inline std::vector<std::string> formatted(const std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> lines;
    for (const Diagnostic& diagnostic : diagnostics)
        lines.push_back(format_diagnostic_with_severity(diagnostic));
    return lines;
}

// The formatted diagnostics of loading `json` as bank "b.json".
inline std::vector<std::string> bank_problems(const std::string& json,
                                              const LoadLimits& limits = {}) {
    return formatted(load_bank(json, "b.json", limits).diagnostics);
}

inline Bank load_valid_bank(const std::string& json) {
    BankLoadResult result = load_bank(json, "b.json");
    if (!result.bank)
        return Bank{};
    return *result.bank;
}

// `session` as a reload finds it: kept in its bank's progress record, encoded and decoded again.
inline Session stored_and_read(const Session& session) {
    ProgressRecord record;
    record.bank_id = session.bank_id;
    record.attempt_in_progress = session;
    const ProgressDecodeResult decoded = decode_progress(encode_progress(record));
    REQUIRE(decoded.record);
    REQUIRE(decoded.record->attempt_in_progress);
    return *decoded.record->attempt_in_progress;
}

// One attempt at `bank` (five_questions: its choice and true/false questions are answered, right or
// wrong by question id; the others are left unanswered) at `at`, recorded into `record`.
inline void attempt(ProgressRecord& record, const Bank& bank, std::int64_t at, const std::map<std::string, bool>& right) {
    Session session = start_session(bank, 7, SessionOptions{{}, at});
    while (!is_finished(session)) {
        const Question& question = *current_question(session, bank);
        const auto wanted = right.find(question.id);
        if (wanted != right.end()) {
            Response response;
            if (question.id == "capital") response = Response::choices({wanted->second ? "paris" : "lyon"});
            else if (question.id == "primes") response = Response::choices(wanted->second ? std::vector<std::string>{"two", "three", "five"}
                                                                                          : std::vector<std::string>{"four"});
            if (question.type == QuestionType::TrueFalse) response = Response::boolean(wanted->second ? question.true_false_answer : !question.true_false_answer);
            check(session, bank, response, at);
        }
        next(session, at);
    }
    record_finished_attempt(record, session, bank, at + 1000);
}

} // namespace imquiz::testing
