// How numbers, times and answers are written on every screen: one place, so the question screen,
// the results and the page never disagree ("20", not "20 ± 0" on one screen and "20" on another).
#pragma once

#include "app/strings.h"

#include "engine/bank.h"
#include "engine/session.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace imquiz::app {

std::string format_points(double value);          // "6", "6.50"
// "75%"; never rounded up to a mark it did not reach: 19,999 of 20,000 is "99.9%", not "100%",
// and a failed 69.6% against a pass mark of 70 is "69.6%" (pass `failed_below` = the mark).
std::string format_percent(double percent, std::optional<double> failed_below = std::nullopt);
std::string format_duration(std::int64_t ms);     // "3:05", "1:02:03"
std::string format_date(std::int64_t unix_ms);    // "2026-12-01" (UTC)
std::string format_iso8601(std::int64_t unix_ms); // "2026-12-01T08:31:13.000Z"
// printf with one of our own format strings ("%d questions").
std::string format_int(const char* format, int value);
std::string format_int2(const char* format, int first, int second);
// One of our own format strings with its "%s" replaced by `value` (which is never a format).
std::string format_text(const char* format, const std::string& value);

// A numeric answer as the learner should read it: "20" (exact), "20 ± 0.5", "18 – 22".
std::string format_numeric_answer(const NumericAnswer& answer);
// The right answer(s) of a question, each as shown ("True", "20", a choice's text).
std::vector<std::string> correct_answer_texts(const Bank& bank, const Question& question, const CorrectAnswer& answer,
                                              const std::string& content_language, Language language);
// What the learner answered, in words; nullopt when nothing was answered.
std::optional<std::string> response_words(const Bank& bank, const Question& question,
                                          const std::optional<Response>& response,
                                          const std::string& content_language, Language language);

// "a; b; c"
std::string join(const std::vector<std::string>& parts, const char* separator);
// Ends a phrase with a full stop unless it already ends a sentence (for joined announcements).
std::string as_sentence(const std::string& text);

}  // namespace imquiz::app
