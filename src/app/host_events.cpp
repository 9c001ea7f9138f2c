// What the embedding page hears: xAPI-shaped statements (attempted, answered, completed,
// passed / failed), posted through the platform only to the origin the page allowed.
#include "app/app_internal.h"
#include "app/bank_texts.h"
#include "app/cloze_text.h"
#include "app/format.h"
#include "engine/json/writer.h"

#include "engine/unicode.h"

#include <algorithm>
#include <cstdio>

namespace imquiz::app {

namespace {

std::string duration_iso(std::int64_t ms) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "PT%.1fS", static_cast<double>(std::max<std::int64_t>(ms, 0)) / 1000.0);
    return buffer;
}

const char* interaction_type(QuestionType type) {
    switch (type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: return "choice";
    case QuestionType::TrueFalse: return "true-false";
    case QuestionType::Numeric: return "numeric";
    case QuestionType::ShortText: return "fill-in";
    case QuestionType::Matching: return "matching";
    case QuestionType::Ordering: return "sequencing";
    case QuestionType::Cloze: return "fill-in";
    }
    return "other";
}

// The statement's object: the quiz, or one of its questions.
void write_activity(JsonWriter& w, const Bank& bank, const std::string& language, const Question* question = nullptr) {
    w.begin_object();
    w.key("objectType").string("Activity");
    w.key("id").string("urn:imquiz:" + bank.id + (question ? ":" + question->id : std::string()));
    w.key("definition").begin_object();
    if (question) {
        w.key("type").string("http://adlnet.gov/expapi/activities/cmi.interaction");
        w.key("interactionType").string(interaction_type(question->type));
    } else {
        w.key("type").string("http://adlnet.gov/expapi/activities/assessment");
    }
    w.key("name").begin_object();
    // A cloze prompt's blanks as gaps, not as the bank's {{id}}.
    const LocalizedText name = !question                              ? bank.title
                               : question->type == QuestionType::Cloze ? cloze_prompt(bank, *question, language, [](const Blank&, int n) {
                                                                             return empty_gap(n);
                                                                         })
                                                                       : question->prompt;
    w.key(language.c_str()).string(text_words(bank, name, language));
    w.end_object();
    w.end_object();
    w.end_object();
}

// {"type":"imquiz:xapi","statement":{"verb":...,"object":...,  <the caller's fields>  "timestamp":...}}
void begin_statement(JsonWriter& w, const char* verb, const Bank& bank, const std::string& language,
                     const Question* question = nullptr) {
    w.begin_object();
    w.key("type").string("imquiz:xapi");
    w.key("statement").begin_object();
    w.key("verb").begin_object();
    w.key("id").string(std::string("http://adlnet.gov/expapi/verbs/") + verb);
    w.key("display").begin_object().key("en-US").string(verb).end_object();
    w.end_object();
    w.key("object");
    write_activity(w, bank, language, question);
}

void send_statement(JsonWriter& w) {
    w.key("timestamp").string(format_iso8601(now()));
    w.end_object().end_object();
    platform::post_to_host(w.take());
}

// xAPI's response pattern for each interaction type.
std::string response_pattern(const Response& response, const Question& question) {
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: return join(response.choice_ids, "[,]");
    case QuestionType::TrueFalse: return response.true_false ? "true" : "false";
    case QuestionType::Ordering: return join(response.choice_ids, "[,]");
    case QuestionType::Matching: {
        // "item[.]answer[,]item[.]answer"
        std::vector<std::string> pairs;
        for (const auto& [item, answer] : response.pairs) pairs.push_back(item + "[.]" + answer);
        return join(pairs, "[,]");
    }
    case QuestionType::Cloze: {
        // fill-in's pattern: each blank's answer, "[,]" between them, in the question's blank order.
        std::vector<std::string> values;
        for (const auto& pair : response.pairs) values.push_back(pair.second);
        return join(values, "[,]");
    }
    default: return response.text;
    }
}

// The statement's context: the quiz it is part of (an answer's), and for a review round (Review
// mistakes, Review N due) an extension saying so, so that a host tells practice from a score of the
// quiz. Nothing when there is neither.
void write_context(JsonWriter& w, const Bank* parent, const std::string& language, bool review) {
    if (!parent && !review) return;
    w.key("context").begin_object();
    if (parent) {
        w.key("contextActivities").begin_object().key("parent").begin_array();
        write_activity(w, *parent, language);
        w.end_array().end_object();
    }
    if (review) w.key("extensions").begin_object().key("urn:imquiz:xapi:round").string("review").end_object();
    w.end_object();
}

// Not for a bank from a bank= link: anyone can make one, and a course page must not take its
// "passed" for a real quiz's.
bool learner_events_allowed(const AppState& state) { return state.wanted_bank_url.empty(); }

}  // namespace

void send_attempted(const AppState& state, const Bank& bank, const Session& session) {
    if (!learner_events_allowed(state)) return;
    JsonWriter w;
    begin_statement(w, "attempted", bank, state.language_code());
    write_context(w, nullptr, state.language_code(), session.review);
    send_statement(w);
}

void send_answered(const AppState& state, const Bank& bank, const Question& question, const Response& response,
                   const Feedback& feedback) {
    if (!learner_events_allowed(state)) return;
    const std::string language = state.language_code();
    JsonWriter w;
    begin_statement(w, "answered", bank, language, &question);
    w.key("result").begin_object();
    w.key("response").string(response_pattern(response, question));
    w.key("success").boolean(feedback.correct);
    w.key("score").begin_object().key("scaled").number(feedback.score).end_object();
    w.key("duration").string(duration_iso(now() - state.question_shown_at_ms));
    // How the answer was reached: the mode, and what hints and tries it took (IRIs of our own, as
    // xAPI asks of extensions; the urn: namespace of the activity ids).
    w.key("extensions").begin_object();
    w.key("urn:imquiz:xapi:mode").string(bank.settings.mode == Settings::Mode::Exam ? "exam" : "practice");
    w.key("urn:imquiz:xapi:tries").integer(feedback.try_number);
    w.key("urn:imquiz:xapi:hints-used").integer(static_cast<long long>(feedback.hints_used));
    w.end_object();
    w.end_object();
    write_context(w, &bank, language, state.session && state.session->review);
    send_statement(w);
}

void send_finished(const AppState& state, const Bank& bank, const Results& r) {
    if (!learner_events_allowed(state)) return;
    const std::string language = state.language_code();
    JsonWriter completed;
    begin_statement(completed, "completed", bank, language);
    completed.key("result").begin_object();
    completed.key("completion").boolean(true);
    if (!r.review) completed.key("success").boolean(r.passed);
    completed.key("duration").string(duration_iso(r.duration_ms));
    completed.key("score").begin_object();
    completed.key("raw").number(r.score).key("min").integer(0).key("max").number(r.max_score);
    completed.key("scaled").number(r.max_score > 0 ? r.score / r.max_score : 0.0);
    completed.end_object().end_object();
    write_context(completed, nullptr, language, r.review);
    send_statement(completed);

    // A review round is practice: no verdict on the quiz from a few of its questions.
    if (r.review) return;
    JsonWriter verdict;
    begin_statement(verdict, r.passed ? "passed" : "failed", bank, language);
    verdict.key("result").begin_object();
    verdict.key("success").boolean(r.passed);
    verdict.key("score").begin_object().key("scaled").number(r.percent / 100.0).end_object();
    verdict.end_object();
    send_statement(verdict);
}

}  // namespace imquiz::app
