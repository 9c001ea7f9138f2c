// The record's JSON form: encoding (always the current version) and lenient decoding (a bad part
// is reported and skipped, the rest kept), migrating older versions first.
#include "engine/progress/format.h"

#include "engine/hash.h"
#include "engine/json/fields.h"
#include "engine/json/writer.h"
#include "engine/progress/migrations.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <tuple>

namespace imquiz {
namespace {

// ---------------------------------------------------------------------------------------------
// Encoding (always the current version)

void write_response(JsonWriter& out, const Response& response) {
    out.begin_object();
    if (!response.choice_ids.empty())
        out.key("choiceIds").strings(response.choice_ids);
    if (response.true_false)
        out.key("trueFalse").boolean(true);
    if (!response.text.empty())
        out.key("text").string(response.text);
    if (!response.pairs.empty()) {
        out.key("pairs").begin_array();
        for (const auto& [first, second] : response.pairs) out.strings({first, second});
        out.end_array();
    }
    out.end_object();
}

void write_session(JsonWriter& out, const Session& session) {
    out.begin_object();
    out.key("attemptId").string(session.attempt_id);
    out.key("bankFingerprint").string(session.bank_fingerprint);
    // A hex string: JSON numbers above 2^53 do not survive JavaScript.
    out.key("seed").string(to_hex(session.seed));
    out.key("startedAtMs").integer(session.started_at_ms);
    out.key("elapsedMs").integer(session.elapsed_ms);
    out.key("lastActivityMs").integer(session.last_activity_ms);
    out.key("current").unsigned_integer(session.current);
    if (session.review)   // only when set: a record without review rounds reads as it always did
        out.key("review").boolean(true);
    out.key("questions").begin_array();
    for (const SessionQuestion& slot : session.questions) {
        out.begin_object();
        out.key("id").string(slot.question_id);
        if (!slot.choice_order.empty())
            out.key("choiceOrder").strings(slot.choice_order);
        if (slot.answer) {
            out.key("answer").begin_object();
            out.key("response");
            write_response(out, slot.answer->response);
            out.key("score").number(slot.answer->score);
            out.key("correct").boolean(slot.answer->correct);
            out.key("answeredAtMs").integer(slot.answer->answered_at_ms);
            out.end_object();
        }
        // Only where there are some: a record without hints or tries reads as it always did.
        if (slot.hints_shown > 0)
            out.key("hintsShown").unsigned_integer(slot.hints_shown);
        if (slot.flagged)
            out.key("flagged").boolean(true);
        if (!slot.wrong_tries.empty()) {
            out.key("wrongTries").begin_array();
            for (const Response& response : slot.wrong_tries) write_response(out, response);
            out.end_array();
        }
        out.end_object();
    }
    out.end_array();
    out.end_object();
}

void write_attempt(JsonWriter& out, const FinishedAttempt& attempt) {
    out.begin_object();
    out.key("attemptId").string(attempt.attempt_id);
    out.key("bankFingerprint").string(attempt.bank_fingerprint);
    out.key("startedAtMs").integer(attempt.started_at_ms);
    out.key("finishedAtMs").integer(attempt.finished_at_ms);
    out.key("durationMs").integer(attempt.duration_ms);
    out.key("score").number(attempt.score);
    out.key("maxScore").number(attempt.max_score);
    out.key("percent").number(attempt.percent);
    out.key("passed").boolean(attempt.passed);
    if (attempt.review)
        out.key("review").boolean(true);
    out.key("questions").begin_array();
    for (const AttemptQuestion& question : attempt.questions) {
        out.begin_object();
        out.key("id").string(question.question_id);
        out.key("outcome").string(to_string(question.outcome));
        out.key("score").number(question.score);
        if (question.response) {
            out.key("response");
            write_response(out, *question.response);
        }
        // Only where there were some: a record without them reads as it always did.
        if (question.tries > 1)
            out.key("tries").integer(question.tries);
        if (question.hints_used > 0)
            out.key("hintsUsed").unsigned_integer(question.hints_used);
        out.end_object();
    }
    out.end_array();
    out.end_object();
}

// Written as it goes, not built as a nlohmann tree first: an ordered_json object finds each new
// member by linear search, and a record's questionStats of 20,000 questions took 4 s that way.
void write_record(JsonWriter& out, const ProgressRecord& record) {
    out.begin_object();
    out.key("version").integer(progress_format_version);
    out.key("bankId").string(record.bank_id);
    if (record.best_percent)
        out.key("bestPercent").number(*record.best_percent);
    // Only when some were pruned: a record that never was is written exactly as before.
    if (record.earlier_attempts > 0)
        out.key("earlierAttempts").integer(record.earlier_attempts);
    if (record.attempt_in_progress) {
        out.key("inProgress");
        write_session(out, *record.attempt_in_progress);
    }
    out.key("finished").begin_array();
    for (const FinishedAttempt& attempt : record.finished_attempts)
        write_attempt(out, attempt);
    out.end_array();
    out.key("questionStats").begin_object();
    for (const auto& [question_id, question_stats] : record.question_stats) {
        out.key(question_id).begin_object();
        out.key("seen").integer(question_stats.seen);
        out.key("correct").integer(question_stats.correct);
        out.key("lastSeenMs").integer(question_stats.last_seen_ms);
        // [stability, difficulty, last answered (seconds), reviews, lapses, question]: an array,
        // as there is one for every question answered (20,000 of them in one bank, in the 5 MB
        // a browser gives a site's storage).
        if (const auto& review = question_stats.review) {
            out.key("review").begin_array();
            out.number(review->stability);
            out.number(review->difficulty);
            out.integer(review->last_ms / 1000);
            out.integer(review->reviews);
            out.integer(review->lapses);
            out.string(review->question);
            out.end_array();
        }
        out.end_object();
    }
    out.end_object();
    out.end_object();
}

// ---------------------------------------------------------------------------------------------
// Decoding: lenient. A bad part is reported and skipped; the rest is kept.

std::optional<std::uint64_t> parse_hex64(std::string_view text) {
    if (text.empty() || text.size() > 16)
        return std::nullopt;
    std::uint64_t value = 0;
    for (char c : text) {
        int digit = 0;
        if (c >= '0' && c <= '9')
            digit = c - '0';
        else if (c >= 'a' && c <= 'f')
            digit = c - 'a' + 10;
        else
            return std::nullopt;
        value = value * 16 + static_cast<std::uint64_t>(digit);
    }
    return value;
}

class RecordDecoder {
public:
    explicit RecordDecoder(DiagnosticCollector& report) : report_(report), read_(report) {}

    // A part decoded without a new problem is kept.
    class Scope {
    public:
        explicit Scope(const DiagnosticCollector& report)
            : report_(report), before_(report.count()) {}
        bool clean() const { return report_.count() == before_; }

    private:
        const DiagnosticCollector& report_;
        std::size_t before_;
    };

    std::optional<ProgressRecord> record(const JsonValue& root) {
        read_.check_fields(root, "", {"version", "bankId", "bestPercent", "earlierAttempts",
                                      "inProgress", "finished", "questionStats"});
        ProgressRecord record;
        const JsonValue* bank_id = read_.required(root, "", "bankId");
        auto id = bank_id == nullptr ? std::nullopt : read_.slug(*bank_id, "bankId", "sample");
        if (!id)
            return std::nullopt;   // without the bank it belongs to, nothing is usable
        record.bank_id = *id;
        if (const JsonValue* best = find_field(root, "bestPercent"))
            record.best_percent = percent(*best, "bestPercent");
        if (const JsonValue* earlier = find_field(root, "earlierAttempts")) {
            auto count = read_.whole_number(*earlier, "earlierAttempts");
            if (count && (*count < 0 || *count > std::numeric_limits<int>::max()))
                report_.error("earlierAttempts",
                              "must be between 0 and " +
                                  std::to_string(std::numeric_limits<int>::max()) + ", got " +
                                  std::to_string(*count));
            else if (count)
                record.earlier_attempts = static_cast<int>(*count);
        }
        if (const JsonValue* in_progress = find_field(root, "inProgress")) {
            Scope scope(report_);
            auto session_value = session(*in_progress, "inProgress", record.bank_id);
            if (session_value && scope.clean())
                record.attempt_in_progress = std::move(session_value);
        }
        if (const JsonValue* finished = find_field(root, "finished")) {
            if (const auto* items = read_.array(*finished, "finished")) {
                std::set<std::string> seen_ids;
                for (std::size_t i = 0; i < items->size() && !report_.full(); ++i) {
                    const std::string path = path_index("finished", i);
                    Scope scope(report_);
                    auto attempt_value = attempt((*items)[i], path);
                    if (!attempt_value || !scope.clean())
                        continue;
                    if (!seen_ids.insert(attempt_value->attempt_id).second) {
                        report_.error(path, "duplicate attempt id " +
                                                in_quotes(attempt_value->attempt_id));
                        continue;
                    }
                    record.finished_attempts.push_back(std::move(*attempt_value));
                }
            }
        }
        if (const JsonValue* stats = find_field(root, "questionStats"))
            question_stats(*stats, record.question_stats);
        return record;
    }

private:
    std::optional<double> percent(const JsonValue& value, const std::string& path) {
        auto number = read_.number(value, path);
        if (number && (*number < 0 || *number > 100)) {
            report_.error(path, "must be between 0 and 100, got " + format_number(*number));
            return std::nullopt;
        }
        return number;
    }

    std::optional<double> score(const JsonValue& value, const std::string& path) {
        auto number = read_.number(value, path);
        if (number && (*number < 0 || *number > 1)) {
            report_.error(path, "must be between 0 and 1, got " + format_number(*number));
            return std::nullopt;
        }
        return number;
    }

    template <typename Integer>
    void integer_field(const JsonValue& object, const std::string& path, std::string_view name,
                       Integer& target) {
        if (const JsonValue* value = read_.required(object, path, name))
            if (auto number = read_.whole_number(*value, path_field(path, name)))
                target = static_cast<Integer>(*number);
    }

    // A count written only when it is at least `least` (tries, hints used).
    template <typename Integer>
    void count_field(const JsonValue& object, const std::string& path, std::string_view name, long long least,
                     Integer& target) {
        const std::string field_path = path_field(path, name);
        if (auto number = read_.whole_number(*find_field(object, name), field_path)) {
            if (*number < least || *number > 1'000'000)
                report_.error(field_path, "expected a count from " + std::to_string(least) + " to 1000000, got " +
                                              std::to_string(*number));
            else
                target = static_cast<Integer>(*number);
        }
    }

    std::vector<std::string> strings(const JsonValue& value, const std::string& path) {
        std::vector<std::string> result;
        if (const auto* items = read_.array(value, path))
            for (std::size_t i = 0; i < items->size(); ++i)
                if (auto text = read_.string((*items)[i], path_index(path, i)))
                    result.push_back(std::move(*text));
        return result;
    }

    std::optional<Response> response(const JsonValue& value, const std::string& path) {
        if (!read_.expect_object(value, path))
            return std::nullopt;
        read_.check_fields(value, path, {"choiceIds", "trueFalse", "text", "pairs"});
        Response result;
        if (const JsonValue* ids = find_field(value, "choiceIds"))
            result.choice_ids = strings(*ids, path_field(path, "choiceIds"));
        if (const JsonValue* flag = find_field(value, "trueFalse"))
            result.true_false = read_.boolean(*flag, path_field(path, "trueFalse")).value_or(false);
        if (const JsonValue* text = find_field(value, "text"))
            result.text = read_.string(*text, path_field(path, "text")).value_or("");
        if (const JsonValue* pairs = find_field(value, "pairs")) {
            const std::string pairs_path = path_field(path, "pairs");
            if (const auto* items = read_.array(*pairs, pairs_path))
                for (std::size_t i = 0; i < items->size(); ++i) {
                    std::vector<std::string> pair = strings((*items)[i], path_index(pairs_path, i));
                    if (pair.size() == 2) result.pairs.emplace_back(std::move(pair[0]), std::move(pair[1]));
                    else report_.error(path_index(pairs_path, i), "a pair needs 2 strings");
                }
        }
        return result;
    }

    std::optional<Session> session(const JsonValue& value, const std::string& path,
                                   const std::string& bank_id) {
        if (!read_.expect_object(value, path))
            return std::nullopt;
        read_.check_fields(value, path, {"attemptId", "bankFingerprint", "seed", "startedAtMs",
                                         "elapsedMs", "lastActivityMs", "current", "review", "questions"});
        Session result;
        result.bank_id = bank_id;
        if (const JsonValue* id = read_.required(value, path, "attemptId"))
            result.attempt_id = read_.string(*id, path_field(path, "attemptId")).value_or("");
        if (const JsonValue* fingerprint = read_.required(value, path, "bankFingerprint"))
            result.bank_fingerprint =
                read_.string(*fingerprint, path_field(path, "bankFingerprint")).value_or("");
        if (const JsonValue* seed = read_.required(value, path, "seed")) {
            if (auto text = read_.string(*seed, path_field(path, "seed"))) {
                if (auto parsed = parse_hex64(*text))
                    result.seed = *parsed;
                else
                    report_.error(path_field(path, "seed"),
                                  "expected 1-16 lowercase hex digits, got " + in_quotes(*text));
            }
        }
        integer_field(value, path, "startedAtMs", result.started_at_ms);
        integer_field(value, path, "elapsedMs", result.elapsed_ms);
        integer_field(value, path, "lastActivityMs", result.last_activity_ms);
        integer_field(value, path, "current", result.current);
        if (const JsonValue* review = find_field(value, "review"))
            result.review = read_.boolean(*review, path_field(path, "review")).value_or(false);
        const JsonValue* questions = read_.required(value, path, "questions");
        const std::string questions_path = path_field(path, "questions");
        const auto* items = questions == nullptr ? nullptr : read_.array(*questions, questions_path);
        for (std::size_t i = 0; items != nullptr && i < items->size(); ++i) {
            const std::string slot_path = path_index(questions_path, i);
            const JsonValue& item = (*items)[i];
            if (!read_.expect_object(item, slot_path))
                continue;
            read_.check_fields(item, slot_path, {"id", "choiceOrder", "answer", "hintsShown", "wrongTries", "flagged"});
            SessionQuestion slot;
            if (const JsonValue* id = read_.required(item, slot_path, "id"))
                slot.question_id = read_.string(*id, path_field(slot_path, "id")).value_or("");
            if (const JsonValue* order = find_field(item, "choiceOrder"))
                slot.choice_order = strings(*order, path_field(slot_path, "choiceOrder"));
            if (const JsonValue* answer = find_field(item, "answer"))
                slot.answer = answer_record(*answer, path_field(slot_path, "answer"));
            if (const JsonValue* flagged = find_field(item, "flagged"))
                slot.flagged = read_.boolean(*flagged, path_field(slot_path, "flagged")).value_or(false);
            if (find_field(item, "hintsShown") != nullptr)
                integer_field(item, slot_path, "hintsShown", slot.hints_shown);
            if (const JsonValue* tries = find_field(item, "wrongTries")) {
                const std::string tries_path = path_field(slot_path, "wrongTries");
                if (const auto* list = read_.array(*tries, tries_path))
                    for (std::size_t t = 0; t < list->size(); ++t)
                        if (auto given = response((*list)[t], path_index(tries_path, t)))
                            slot.wrong_tries.push_back(std::move(*given));
            }
            result.questions.push_back(std::move(slot));
        }
        if (result.attempt_id.empty() && find_field(value, "attemptId") != nullptr)
            report_.error(path_field(path, "attemptId"), "attempt id is empty");
        if (result.current > result.questions.size())
            report_.error(path_field(path, "current"),
                          "question " + std::to_string(result.current) + " of " +
                              std::to_string(result.questions.size()) + " does not exist");
        return result;
    }

    std::optional<AnswerRecord> answer_record(const JsonValue& value, const std::string& path) {
        if (!read_.expect_object(value, path))
            return std::nullopt;
        read_.check_fields(value, path, {"response", "score", "correct", "answeredAtMs"});
        AnswerRecord result;
        if (const JsonValue* given = read_.required(value, path, "response"))
            result.response = response(*given, path_field(path, "response")).value_or(Response{});
        if (const JsonValue* points = read_.required(value, path, "score"))
            result.score = score(*points, path_field(path, "score")).value_or(0);
        if (const JsonValue* correct = read_.required(value, path, "correct"))
            result.correct = read_.boolean(*correct, path_field(path, "correct")).value_or(false);
        integer_field(value, path, "answeredAtMs", result.answered_at_ms);
        return result;
    }

    std::optional<FinishedAttempt> attempt(const JsonValue& value, const std::string& path) {
        if (!read_.expect_object(value, path))
            return std::nullopt;
        read_.check_fields(value, path, {"attemptId", "bankFingerprint", "startedAtMs",
                                         "finishedAtMs", "durationMs", "score", "maxScore",
                                         "percent", "passed", "review", "questions"});
        FinishedAttempt result;
        if (const JsonValue* id = read_.required(value, path, "attemptId")) {
            result.attempt_id = read_.string(*id, path_field(path, "attemptId")).value_or("");
            if (result.attempt_id.empty() && as_string(*id))
                report_.error(path_field(path, "attemptId"), "attempt id is empty");
        }
        if (const JsonValue* fingerprint = read_.required(value, path, "bankFingerprint"))
            result.bank_fingerprint =
                read_.string(*fingerprint, path_field(path, "bankFingerprint")).value_or("");
        integer_field(value, path, "startedAtMs", result.started_at_ms);
        integer_field(value, path, "finishedAtMs", result.finished_at_ms);
        integer_field(value, path, "durationMs", result.duration_ms);
        if (const JsonValue* points = read_.required(value, path, "score"))
            result.score = read_.number(*points, path_field(path, "score")).value_or(0);
        if (const JsonValue* max_points = read_.required(value, path, "maxScore"))
            result.max_score = read_.number(*max_points, path_field(path, "maxScore")).value_or(0);
        if (const JsonValue* share = read_.required(value, path, "percent"))
            result.percent = percent(*share, path_field(path, "percent")).value_or(0);
        if (const JsonValue* passed = read_.required(value, path, "passed"))
            result.passed = read_.boolean(*passed, path_field(path, "passed")).value_or(false);
        if (const JsonValue* review = find_field(value, "review"))
            result.review = read_.boolean(*review, path_field(path, "review")).value_or(false);
        const JsonValue* questions = read_.required(value, path, "questions");
        const std::string questions_path = path_field(path, "questions");
        const auto* items = questions == nullptr ? nullptr : read_.array(*questions, questions_path);
        for (std::size_t i = 0; items != nullptr && i < items->size(); ++i) {
            const std::string item_path = path_index(questions_path, i);
            const JsonValue& item = (*items)[i];
            if (!read_.expect_object(item, item_path))
                continue;
            read_.check_fields(item, item_path, {"id", "outcome", "score", "response", "tries", "hintsUsed"});
            AttemptQuestion question;
            if (const JsonValue* id = read_.required(item, item_path, "id"))
                question.question_id = read_.string(*id, path_field(item_path, "id")).value_or("");
            if (const JsonValue* outcome = read_.required(item, item_path, "outcome")) {
                const std::string outcome_path = path_field(item_path, "outcome");
                if (auto name = read_.string(*outcome, outcome_path)) {
                    if (auto parsed = outcome_from_string(*name))
                        question.outcome = *parsed;
                    else
                        report_.error(outcome_path, "unknown outcome " + in_quotes(*name));
                }
            }
            if (const JsonValue* points = read_.required(item, item_path, "score"))
                question.score = score(*points, path_field(item_path, "score")).value_or(0);
            if (const JsonValue* given = find_field(item, "response"))
                question.response = response(*given, path_field(item_path, "response"));
            if (find_field(item, "tries") != nullptr)
                count_field(item, item_path, "tries", 2, question.tries);
            if (find_field(item, "hintsUsed") != nullptr)
                count_field(item, item_path, "hintsUsed", 1, question.hints_used);
            result.questions.push_back(std::move(question));
        }
        return result;
    }

    // A question's review schedule: numbers in the ranges the scheduler gives (schedule.h), or
    // none (the question is then scheduled afresh at its next answer).
    std::optional<ReviewCard> review_card(const JsonValue& value, const std::string& path) {
        const auto* items = read_.array(value, path);
        if (!items) return std::nullopt;
        if (items->size() != 6) {
            report_.error(path, "expected [stability, difficulty, last answered in seconds, reviews, lapses, question], got " +
                                    std::to_string(items->size()) + " items");
            return std::nullopt;
        }
        Scope scope(report_);
        ReviewCard card;
        card.stability = read_.number((*items)[0], path_index(path, 0)).value_or(0);
        card.difficulty = read_.number((*items)[1], path_index(path, 1)).value_or(0);
        const long long seconds = read_.whole_number((*items)[2], path_index(path, 2)).value_or(0);
        const long long reviews = read_.whole_number((*items)[3], path_index(path, 3)).value_or(0);
        const long long lapses = read_.whole_number((*items)[4], path_index(path, 4)).value_or(0);
        card.question = read_.string((*items)[5], path_index(path, 5)).value_or("");
        if (!scope.clean()) return std::nullopt;
        // Up to the year 9999, and a million answers.
        if (!(card.stability > 0 && card.stability <= 36'500) || !(card.difficulty >= 1 && card.difficulty <= 10) ||
            seconds < 0 || seconds > 253'402'300'799LL || reviews < 1 || reviews > 1'000'000 || lapses < 0 || lapses >= reviews) {
            report_.error(path, "not a schedule the scheduler gives (stability 0-36500 days, difficulty 1-10, "
                                "a time from 1970 to 9999, 0 <= lapses < reviews)");
            return std::nullopt;
        }
        card.last_ms = seconds * 1000;
        card.reviews = static_cast<int>(reviews);
        card.lapses = static_cast<int>(lapses);
        return card;
    }

    void question_stats(const JsonValue& value, std::map<std::string, QuestionStats>& stats) {
        if (!value.is_object()) {
            read_.type_error("questionStats", "an object", value);
            return;
        }
        for (const JsonValue& item : value.children()) {
            const std::string question_id(item.key());
            const std::string path = path_field("questionStats", question_id);
            Scope scope(report_);
            if (!read_.expect_object(item, path))
                continue;
            read_.check_fields(item, path, {"seen", "correct", "lastSeenMs", "review"});
            QuestionStats entry;
            integer_field(item, path, "seen", entry.seen);
            integer_field(item, path, "correct", entry.correct);
            integer_field(item, path, "lastSeenMs", entry.last_seen_ms);
            if (const JsonValue* review = find_field(item, "review"))
                entry.review = review_card(*review, path_field(path, "review"));
            if (scope.clean() && (entry.seen < 0 || entry.correct < 0 || entry.correct > entry.seen))
                report_.error(path, "needs 0 <= correct <= seen, got correct " +
                                        std::to_string(entry.correct) + " of " +
                                        std::to_string(entry.seen));
            if (scope.clean())
                stats[question_id] = entry;
        }
    }

    DiagnosticCollector& report_;
    FieldReader read_;
};

} // namespace

bool finished_earlier(const FinishedAttempt& a, const FinishedAttempt& b) {
    return std::tie(a.finished_at_ms, a.attempt_id) < std::tie(b.finished_at_ms, b.attempt_id);
}

std::string problem_text(const Diagnostic& diagnostic, const std::string& base_path) {
    std::string path = base_path;
    if (!diagnostic.path.empty()) {
        if (!path.empty() && diagnostic.path[0] != '[')
            path += '.';
        path += diagnostic.path;
    }
    if (diagnostic.line > 0)
        return "line " + std::to_string(diagnostic.line) + ", column " +
               std::to_string(diagnostic.column) + ": " + diagnostic.message;
    return path.empty() ? diagnostic.message : path + ": " + diagnostic.message;
}

ProgressDecodeResult decode_progress_json(const JsonValue& root, const std::string& base_path) {
    ProgressDecodeResult result;
    std::vector<Diagnostic> diagnostics;
    const LoadLimits limits;
    DiagnosticCollector report("", limits.max_diagnostics, diagnostics);
    FieldReader read(report);
    const auto finish = [&]() {
        for (const Diagnostic& diagnostic : diagnostics)
            result.problems.push_back(problem_text(diagnostic, base_path));
        return result;
    };

    if (!read.expect_object(root, ""))
        return finish();
    const JsonValue* version_field = read.required(root, "", "version");
    const auto version =
        version_field == nullptr ? std::nullopt : read.whole_number(*version_field, "version");
    if (!version)
        return finish();
    result.version = static_cast<int>(std::clamp<long long>(*version, -1, 1 << 30));
    if (result.version > progress_format_version) {
        result.newer_version = true;
        report.error("version", "saved by a newer ImQuiz (progress version " +
                                    std::to_string(result.version) + "; this one reads up to " +
                                    std::to_string(progress_format_version) + ")");
        return finish();
    }
    if (result.version < 1) {
        report.error("version", "unknown progress version " + std::to_string(result.version));
        return finish();
    }

    // Each migration writes the next version; what it wrote is read back to go on.
    // Each step's text outlives its document, which points into it.
    std::vector<std::string> migrated_texts;
    std::vector<JsonDocument> migrated;
    migrated_texts.reserve(progress_format_version);
    migrated.reserve(progress_format_version);
    const JsonValue* current = &root;
    MigrationContext context{report, result.notes};
    for (int step = result.version; step < progress_format_version; ++step) {
        migrated_texts.push_back(migrate_record(step, *current, context));
        JsonReadResult next = read_json(migrated_texts.back(), "", limits);
        if (!next.document)   // our own writer's output: never, unless it broke a limit
            return finish();
        migrated.push_back(std::move(*next.document));
        current = &migrated.back().root();
    }
    result.migrated = result.version < progress_format_version;

    RecordDecoder decoder(report);
    result.record = decoder.record(*current);
    if (result.record)
        std::sort(result.record->finished_attempts.begin(),
                  result.record->finished_attempts.end(), finished_earlier);
    return finish();
}

std::string encode_progress(const ProgressRecord& record) {
    JsonWriter out;
    write_record(out, record);
    return out.take();
}

ProgressDecodeResult decode_progress(std::string_view json_text) {
    const LoadLimits limits;
    const JsonReadResult parsed = read_json(json_text, "", limits);
    if (!parsed.document || has_errors(parsed.diagnostics)) {
        ProgressDecodeResult result;
        for (const Diagnostic& diagnostic : parsed.diagnostics)
            result.problems.push_back(problem_text(diagnostic));
        return result;
    }
    return decode_progress_json(parsed.document->root());
}

} // namespace imquiz
