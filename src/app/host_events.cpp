// What the embedding page hears: xAPI-shaped statements (attempted, answered, completed,
// passed / failed), posted through the platform only to the origin the page allowed.
#include "app/app_internal.h"
#include "app/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace imquiz::app {

namespace {

using json = nlohmann::ordered_json;

std::string duration_iso(std::int64_t ms) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "PT%.1fS", static_cast<double>(std::max<std::int64_t>(ms, 0)) / 1000.0);
    return buffer;
}

json verb(const char* name) {
    return {{"id", std::string("http://adlnet.gov/expapi/verbs/") + name}, {"display", {{"en-US", name}}}};
}

json activity(const Bank& bank, const std::string& language, const Question* question = nullptr) {
    json object = {{"objectType", "Activity"}};
    if (question) {
        const char* interaction = "other";
        switch (question->type) {
        case QuestionType::SingleChoice:
        case QuestionType::MultipleChoice: interaction = "choice"; break;
        case QuestionType::TrueFalse: interaction = "true-false"; break;
        case QuestionType::Numeric: interaction = "numeric"; break;
        case QuestionType::ShortText: interaction = "fill-in"; break;
        }
        object["id"] = "urn:imquiz:" + bank.id + ":" + question->id;
        object["definition"] = {{"type", "http://adlnet.gov/expapi/activities/cmi.interaction"},
                                {"interactionType", interaction},
                                {"name", {{language, bank.text(question->prompt, language)}}}};
    } else {
        object["id"] = "urn:imquiz:" + bank.id;
        object["definition"] = {{"type", "http://adlnet.gov/expapi/activities/assessment"},
                                {"name", {{language, bank.text(bank.title, language)}}}};
    }
    return object;
}

void send_statement(json statement) {
    statement["timestamp"] = format_iso8601(now());
    json message = {{"type", "imquiz:xapi"}, {"statement", std::move(statement)}};
    platform::post_to_host(message.dump());
}

// xAPI's response pattern for each interaction type.
std::string response_pattern(const Response& response, const Question& question) {
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: return join(response.choice_ids, "[,]");
    case QuestionType::TrueFalse: return response.true_false ? "true" : "false";
    default: return response.text;
    }
}

}  // namespace

void send_attempted(const AppState& state, const Bank& bank) {
    send_statement({{"verb", verb("attempted")}, {"object", activity(bank, state.language_code())}});
}

void send_answered(const AppState& state, const Bank& bank, const Question& question, const Response& response,
                   const Feedback& feedback) {
    const std::string language = state.language_code();
    send_statement({{"verb", verb("answered")},
                    {"object", activity(bank, language, &question)},
                    {"result", {{"response", response_pattern(response, question)},
                                {"success", feedback.correct},
                                {"score", {{"scaled", feedback.score}}},
                                {"duration", duration_iso(now() - state.question_shown_at_ms)}}},
                    {"context", {{"contextActivities", {{"parent", {activity(bank, language)}}}}}}});
}

void send_finished(const AppState& state, const Bank& bank, const Results& r) {
    const std::string language = state.language_code();
    send_statement({{"verb", verb("completed")},
                    {"object", activity(bank, language)},
                    {"result", {{"completion", true},
                                {"success", r.passed},
                                {"duration", duration_iso(r.duration_ms)},
                                {"score", {{"raw", r.score}, {"min", 0}, {"max", r.max_score},
                                           {"scaled", r.max_score > 0 ? r.score / r.max_score : 0.0}}}}}});
    send_statement({{"verb", verb(r.passed ? "passed" : "failed")},
                    {"object", activity(bank, language)},
                    {"result", {{"success", r.passed}, {"score", {{"scaled", r.percent / 100.0}}}}}});
}

}  // namespace imquiz::app
