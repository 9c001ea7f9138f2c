#include "engine/progress.h"

#include "engine/hash.h"
#include "engine/json/fields.h"
#include "engine/json/reader.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace imquiz {
namespace {

constexpr std::string_view export_format = "imquiz-progress-export";
constexpr int export_format_version = 1;

// The order of ProgressRecord::finished_attempts.
bool finished_earlier(const FinishedAttempt& a, const FinishedAttempt& b) {
    return std::tie(a.finished_at_ms, a.attempt_id) < std::tie(b.finished_at_ms, b.attempt_id);
}

// ---------------------------------------------------------------------------------------------
// Encoding (always the current version)

Json encode_response(const Response& response) {
    Json json = Json::object();
    if (!response.choice_ids.empty())
        json["choiceIds"] = response.choice_ids;
    if (response.true_false)
        json["trueFalse"] = true;
    if (!response.text.empty())
        json["text"] = response.text;
    return json;
}

Json encode_session(const Session& session) {
    Json json = Json::object();
    json["attemptId"] = session.attempt_id;
    json["bankFingerprint"] = session.bank_fingerprint;
    // A hex string: JSON numbers above 2^53 do not survive JavaScript.
    json["seed"] = to_hex(session.seed);
    json["startedAtMs"] = session.started_at_ms;
    json["elapsedMs"] = session.elapsed_ms;
    json["lastActivityMs"] = session.last_activity_ms;
    json["current"] = session.current;
    Json questions = Json::array();
    for (const SessionQuestion& slot : session.questions) {
        Json question = Json::object();
        question["id"] = slot.question_id;
        if (!slot.choice_order.empty())
            question["choiceOrder"] = slot.choice_order;
        if (slot.answer) {
            Json answer = Json::object();
            answer["response"] = encode_response(slot.answer->response);
            answer["score"] = slot.answer->score;
            answer["correct"] = slot.answer->correct;
            answer["answeredAtMs"] = slot.answer->answered_at_ms;
            question["answer"] = std::move(answer);
        }
        questions.push_back(std::move(question));
    }
    json["questions"] = std::move(questions);
    return json;
}

Json encode_attempt(const FinishedAttempt& attempt) {
    Json json = Json::object();
    json["attemptId"] = attempt.attempt_id;
    json["bankFingerprint"] = attempt.bank_fingerprint;
    json["startedAtMs"] = attempt.started_at_ms;
    json["finishedAtMs"] = attempt.finished_at_ms;
    json["durationMs"] = attempt.duration_ms;
    json["score"] = attempt.score;
    json["maxScore"] = attempt.max_score;
    json["percent"] = attempt.percent;
    json["passed"] = attempt.passed;
    Json questions = Json::array();
    for (const AttemptQuestion& question : attempt.questions) {
        Json item = Json::object();
        item["id"] = question.question_id;
        item["outcome"] = std::string(to_string(question.outcome));
        item["score"] = question.score;
        if (question.response)
            item["response"] = encode_response(*question.response);
        questions.push_back(std::move(item));
    }
    json["questions"] = std::move(questions);
    return json;
}

Json encode_record(const ProgressRecord& record) {
    Json json = Json::object();
    json["version"] = progress_format_version;
    json["bankId"] = record.bank_id;
    if (record.best_percent)
        json["bestPercent"] = *record.best_percent;
    if (record.attempt_in_progress)
        json["inProgress"] = encode_session(*record.attempt_in_progress);
    Json finished = Json::array();
    for (const FinishedAttempt& attempt : record.finished_attempts)
        finished.push_back(encode_attempt(attempt));
    json["finished"] = std::move(finished);
    Json stats = Json::object();
    for (const auto& [question_id, question_stats] : record.question_stats) {
        Json item = Json::object();
        item["seen"] = question_stats.seen;
        item["correct"] = question_stats.correct;
        item["lastSeenMs"] = question_stats.last_seen_ms;
        stats[question_id] = std::move(item);
    }
    json["questionStats"] = std::move(stats);
    return json;
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
        read_.check_fields(root, "", {"version", "bankId", "bestPercent", "inProgress",
                                      "finished", "questionStats"});
        ProgressRecord record;
        const JsonValue* bank_id = read_.required(root, "", "bankId");
        auto id = bank_id == nullptr ? std::nullopt : read_.slug(*bank_id, "bankId", "sample");
        if (!id)
            return std::nullopt;   // without the bank it belongs to, nothing is usable
        record.bank_id = *id;
        if (const JsonValue* best = find_field(root, "bestPercent"))
            record.best_percent = percent(*best, "bestPercent");
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
        read_.check_fields(value, path, {"choiceIds", "trueFalse", "text"});
        Response result;
        if (const JsonValue* ids = find_field(value, "choiceIds"))
            result.choice_ids = strings(*ids, path_field(path, "choiceIds"));
        if (const JsonValue* flag = find_field(value, "trueFalse"))
            result.true_false = read_.boolean(*flag, path_field(path, "trueFalse")).value_or(false);
        if (const JsonValue* text = find_field(value, "text"))
            result.text = read_.string(*text, path_field(path, "text")).value_or("");
        return result;
    }

    std::optional<Session> session(const JsonValue& value, const std::string& path,
                                   const std::string& bank_id) {
        if (!read_.expect_object(value, path))
            return std::nullopt;
        read_.check_fields(value, path, {"attemptId", "bankFingerprint", "seed", "startedAtMs",
                                         "elapsedMs", "lastActivityMs", "current", "questions"});
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
        const JsonValue* questions = read_.required(value, path, "questions");
        const std::string questions_path = path_field(path, "questions");
        const auto* items = questions == nullptr ? nullptr : read_.array(*questions, questions_path);
        for (std::size_t i = 0; items != nullptr && i < items->size(); ++i) {
            const std::string slot_path = path_index(questions_path, i);
            const JsonValue& item = (*items)[i];
            if (!read_.expect_object(item, slot_path))
                continue;
            read_.check_fields(item, slot_path, {"id", "choiceOrder", "answer"});
            SessionQuestion slot;
            if (const JsonValue* id = read_.required(item, slot_path, "id"))
                slot.question_id = read_.string(*id, path_field(slot_path, "id")).value_or("");
            if (const JsonValue* order = find_field(item, "choiceOrder"))
                slot.choice_order = strings(*order, path_field(slot_path, "choiceOrder"));
            if (const JsonValue* answer = find_field(item, "answer"))
                slot.answer = answer_record(*answer, path_field(slot_path, "answer"));
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
                                         "percent", "passed", "questions"});
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
        const JsonValue* questions = read_.required(value, path, "questions");
        const std::string questions_path = path_field(path, "questions");
        const auto* items = questions == nullptr ? nullptr : read_.array(*questions, questions_path);
        for (std::size_t i = 0; items != nullptr && i < items->size(); ++i) {
            const std::string item_path = path_index(questions_path, i);
            const JsonValue& item = (*items)[i];
            if (!read_.expect_object(item, item_path))
                continue;
            read_.check_fields(item, item_path, {"id", "outcome", "score", "response"});
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
            result.questions.push_back(std::move(question));
        }
        return result;
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
            read_.check_fields(item, path, {"seen", "correct", "lastSeenMs"});
            QuestionStats entry;
            integer_field(item, path, "seen", entry.seen);
            integer_field(item, path, "correct", entry.correct);
            integer_field(item, path, "lastSeenMs", entry.last_seen_ms);
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

// ---------------------------------------------------------------------------------------------
// Migrations, one step per version. Each takes a record of version N (as JSON) and returns it in
// version N + 1; what it cannot carry over goes to `notes`, what is broken to the reporter.

struct MigrationContext {
    DiagnosticCollector& report;
    std::vector<std::string>& notes;
};

// Version 1 counted seconds; kept within what JSON numbers (and JavaScript) hold exactly.
std::int64_t milliseconds(long long seconds) {
    return static_cast<std::int64_t>(
        std::clamp(static_cast<double>(seconds) * 1000.0, -9e15, 9e15));
}

// Version 1, the prototype's shape:
//   {"version": 1, "quiz": "<bank id>", "best": <percent, whole number>,
//    "history": [{"finishedAt": <unix seconds>, "durationSeconds": N, "correct": N, "total": N,
//                 "passed": bool, "answers": {"<question id>": true|false}}],
//    "current": {"seed": N, "index": N, "answers": {...}},
//    "stats": {"<question id>": {"seen": N, "right": N}}}
// It saved no question order for the attempt in progress and no bank fingerprint, so that
// attempt cannot be resumed exactly: it is dropped (with a note). Finished attempts get an id
// made from their content, so two tabs migrating the same record agree.
Json migrate_v1_to_v2(const JsonValue& v1, MigrationContext& context) {
    DiagnosticCollector& report = context.report;
    FieldReader read(report);
    read.check_fields(v1, "", {"version", "quiz", "best", "history", "current", "stats"});
    Json v2 = Json::object();
    v2["version"] = 2;
    if (const JsonValue* quiz = read.required(v1, "", "quiz"))
        v2["bankId"] = to_json(*quiz);
    if (const JsonValue* best = find_field(v1, "best"))
        v2["bestPercent"] = to_json(*best);

    std::map<std::string, std::int64_t> last_seen_ms;
    Json finished = Json::array();
    const JsonValue* history = find_field(v1, "history");
    const auto* entries = history == nullptr ? nullptr : read.array(*history, "history");
    for (std::size_t i = 0; entries != nullptr && i < entries->size(); ++i) {
        const std::string path = path_index("history", i);
        const JsonValue& entry = (*entries)[i];
        const std::size_t problems_before = report.count();
        if (!read.expect_object(entry, path))
            continue;
        read.check_fields(entry, path,
                          {"finishedAt", "durationSeconds", "correct", "total", "passed",
                           "answers"});
        const auto number = [&](std::string_view name) -> long long {
            const JsonValue* value = read.required(entry, path, name);
            return value == nullptr ? 0 : read.whole_number(*value, path_field(path, name)).value_or(0);
        };
        const long long finished_at = number("finishedAt");
        const long long duration = number("durationSeconds");
        const long long correct = number("correct");
        const long long total = number("total");
        bool passed = false;
        if (const JsonValue* value = read.required(entry, path, "passed"))
            passed = read.boolean(*value, path_field(path, "passed")).value_or(false);
        Json questions = Json::array();
        const JsonValue* answers = read.required(entry, path, "answers");
        if (answers != nullptr && read.expect_object(*answers, path_field(path, "answers"))) {
            for (const JsonValue& right : answers->children()) {
                const std::string question_id(right.key());
                auto flag = read.boolean(right, path_field(path_field(path, "answers"), question_id));
                if (!flag)
                    continue;
                Json question = Json::object();
                question["id"] = question_id;
                question["outcome"] = *flag ? "correct" : "wrong";
                question["score"] = *flag ? 1 : 0;
                questions.push_back(std::move(question));
                std::int64_t& last = last_seen_ms[question_id];
                last = std::max(last, milliseconds(finished_at));
            }
        }
        if (total <= 0 || correct < 0 || correct > total) {
            if (report.count() == problems_before)
                report.error(path, "needs 0 <= correct <= total and total > 0");
        }
        if (report.count() != problems_before)
            continue;
        Fnv1a id;
        id.text("imquiz-progress-v1-attempt");
        id.text(dump_json(v2.contains("bankId") ? v2["bankId"] : Json()));
        id.text(dump_json(to_json(entry)));
        Json attempt = Json::object();
        attempt["attemptId"] = "v1-" + to_hex(id.value());
        attempt["bankFingerprint"] = "";
        attempt["startedAtMs"] = milliseconds(finished_at - duration);
        attempt["finishedAtMs"] = milliseconds(finished_at);
        attempt["durationMs"] = milliseconds(duration);
        attempt["score"] = correct;
        attempt["maxScore"] = total;
        attempt["percent"] = 100.0 * static_cast<double>(correct) / static_cast<double>(total);
        attempt["passed"] = passed;
        attempt["questions"] = std::move(questions);
        finished.push_back(std::move(attempt));
    }
    v2["finished"] = std::move(finished);

    Json stats = Json::object();
    if (const JsonValue* old_stats = find_field(v1, "stats"); old_stats != nullptr &&
                                                         read.expect_object(*old_stats, "stats")) {
        for (const JsonValue& entry : old_stats->children()) {
            const std::string question_id(entry.key());
            const std::string path = path_field("stats", question_id);
            if (!read.expect_object(entry, path))
                continue;
            read.check_fields(entry, path, {"seen", "right"});
            Json item = Json::object();
            if (const JsonValue* seen = read.required(entry, path, "seen"))
                item["seen"] = to_json(*seen);
            if (const JsonValue* right = read.required(entry, path, "right"))
                item["correct"] = to_json(*right);   // renamed in version 2
            auto last = last_seen_ms.find(question_id);
            item["lastSeenMs"] = last == last_seen_ms.end() ? 0 : last->second;
            stats[question_id] = std::move(item);
        }
    }
    v2["questionStats"] = std::move(stats);

    if (find_field(v1, "current") != nullptr)
        context.notes.push_back("the attempt in progress was saved by an older ImQuiz without its "
                                "question order and cannot be resumed exactly; it was dropped");
    return v2;
}

using Migration = Json (*)(const JsonValue&, MigrationContext&);
// migrations[N] takes version N to N + 1.
constexpr Migration migrations[progress_format_version] = {nullptr, migrate_v1_to_v2};

// `finished[2].percent: expected a number, got a string`, under `base_path` when given
// (`records[0].finished[2]...` in an import).
std::string problem_text(const Diagnostic& diagnostic, const std::string& base_path = {}) {
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

ProgressDecodeResult decode_json(const JsonValue& root, const std::string& base_path = {}) {
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
    std::optional<JsonDocument> migrated;
    const JsonValue* current = &root;
    MigrationContext context{report, result.notes};
    for (int step = result.version; step < progress_format_version; ++step) {
        migrated = to_document(migrations[step](*current, context));
        current = &migrated->root();
    }
    result.migrated = result.version < progress_format_version;

    RecordDecoder decoder(report);
    result.record = decoder.record(*current);
    if (result.record)
        std::sort(result.record->finished_attempts.begin(),
                  result.record->finished_attempts.end(), finished_earlier);
    return finish();
}

// ---------------------------------------------------------------------------------------------
// Records

void add_contribution(std::map<std::string, QuestionStats>& stats, const FinishedAttempt& attempt) {
    for (const AttemptQuestion& question : attempt.questions) {
        QuestionStats& entry = stats[question.question_id];
        ++entry.seen;
        entry.correct += question.outcome == Outcome::Correct ? 1 : 0;
        entry.last_seen_ms = std::max(entry.last_seen_ms, attempt.finished_at_ms);
    }
}

bool has_attempt(const ProgressRecord& record, std::string_view attempt_id) {
    return std::any_of(record.finished_attempts.begin(), record.finished_attempts.end(),
                       [&](const FinishedAttempt& attempt) { return attempt.attempt_id == attempt_id; });
}

void insert_in_order(std::vector<FinishedAttempt>& attempts, FinishedAttempt attempt) {
    const auto position =
        std::upper_bound(attempts.begin(), attempts.end(), attempt, finished_earlier);
    attempts.insert(position, std::move(attempt));
}

// `wanted`, or `wanted-2`, `-3`... whichever is free: backups and copies are never overwritten.
std::string free_key(KeyValueStore& store, const std::string& wanted) {
    if (!store.get(wanted))
        return wanted;
    for (int suffix = 2;; ++suffix) {
        std::string candidate = wanted + "-" + std::to_string(suffix);
        if (!store.get(candidate))
            return candidate;
    }
}

// Before the record at `key` is replaced, keeps the stored text where the rules say: a record of
// an older version as `<key>.backup-v<N>`, a partly or wholly unreadable one as
// `<key>.unreadable`. Returns the key of the copy ("" when the record needs none), nullopt when
// storage refused the copy (then the record must not be replaced).
std::optional<std::string> keep_before_replacing(KeyValueStore& store, const std::string& key,
                                                 const std::string& stored,
                                                 const ProgressDecodeResult& decoded) {
    std::string suffix;
    if (!decoded.record || !decoded.problems.empty())
        suffix = ".unreadable";
    else if (decoded.migrated)
        suffix = ".backup-v" + std::to_string(decoded.version);
    else
        return std::string();
    std::string copy_key = free_key(store, key + suffix);
    if (!store.set(copy_key, stored))
        return std::nullopt;
    return copy_key;
}

void raise_best(ProgressRecord& record, std::optional<double> percent) {
    if (percent && (!record.best_percent || *percent > *record.best_percent))
        record.best_percent = percent;
}

} // namespace

void record_finished_attempt(ProgressRecord& record, const Session& session, const Bank& bank,
                             std::int64_t finished_at_ms) {
    if (record.attempt_in_progress &&
        record.attempt_in_progress->attempt_id == session.attempt_id)
        record.attempt_in_progress.reset();
    if (has_attempt(record, session.attempt_id))
        return;
    const Results outcome = results(session, bank);
    FinishedAttempt attempt;
    attempt.attempt_id = session.attempt_id;
    attempt.bank_fingerprint = session.bank_fingerprint;
    attempt.started_at_ms = session.started_at_ms;
    attempt.finished_at_ms = finished_at_ms;
    attempt.duration_ms = outcome.duration_ms;
    attempt.score = outcome.score;
    attempt.max_score = outcome.max_score;
    attempt.percent = outcome.percent;
    attempt.passed = outcome.passed;
    for (const QuestionResult& question : outcome.questions)
        attempt.questions.push_back(
            {question.question_id, question.outcome, question.score, question.response});
    add_contribution(record.question_stats, attempt);
    raise_best(record, attempt.percent);
    insert_in_order(record.finished_attempts, std::move(attempt));
}

std::vector<std::string> reconcile_with_bank(ProgressRecord& record, const Bank& bank) {
    std::vector<std::string> notes;
    if (record.attempt_in_progress && !session_matches_bank(*record.attempt_in_progress, bank)) {
        record.attempt_in_progress.reset();
        notes.push_back("the attempt in progress was started on a different version of bank \"" +
                        bank.id + "\" and cannot be resumed; it was discarded (finished attempts "
                        "and question statistics are kept)");
    }
    return notes;
}

MergeSummary merge_progress(ProgressRecord& into, const ProgressRecord& other) {
    MergeSummary summary;
    if (into.bank_id.empty())
        into.bank_id = other.bank_id;
    if (into.bank_id != other.bank_id)
        return summary;   // different banks: nothing in common to merge
    for (const FinishedAttempt& attempt : other.finished_attempts) {
        if (has_attempt(into, attempt.attempt_id)) {
            ++summary.attempts_already_present;
            continue;
        }
        add_contribution(into.question_stats, attempt);
        insert_in_order(into.finished_attempts, attempt);
        ++summary.attempts_added;
    }
    for (const auto& [question_id, stats] : other.question_stats) {
        QuestionStats& entry = into.question_stats[question_id];
        entry.last_seen_ms = std::max(entry.last_seen_ms, stats.last_seen_ms);
    }
    raise_best(into, other.best_percent);
    if (into.attempt_in_progress && has_attempt(into, into.attempt_in_progress->attempt_id))
        into.attempt_in_progress.reset();
    if (!into.attempt_in_progress && other.attempt_in_progress &&
        !has_attempt(into, other.attempt_in_progress->attempt_id)) {
        into.attempt_in_progress = other.attempt_in_progress;
        summary.attempt_in_progress_taken = true;
    }
    return summary;
}

std::string encode_progress(const ProgressRecord& record) {
    return dump_json(encode_record(record));
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
    return decode_json(parsed.document->root());
}

// ---------------------------------------------------------------------------------------------
// ProgressStore

ProgressStore::ProgressStore(KeyValueStore& store, std::string key_prefix)
    : store_(store), prefix_(std::move(key_prefix)) {}

std::string ProgressStore::key_for(std::string_view bank_id) const {
    return prefix_ + "progress." + std::string(bank_id);
}

ProgressDecodeResult ProgressStore::decode_stored(std::string_view bank_id,
                                                  const std::string& stored) {
    ProgressDecodeResult decoded = decode_progress(stored);
    if (decoded.record && decoded.record->bank_id != bank_id) {
        decoded.problems.push_back("bankId: the record is for bank \"" + decoded.record->bank_id +
                                   "\", not \"" + std::string(bank_id) + "\"");
        decoded.record.reset();
    }
    return decoded;
}

ProgressStore::LoadResult ProgressStore::load(std::string_view bank_id) {
    LoadResult result;
    result.record.bank_id = std::string(bank_id);
    const std::string key = key_for(bank_id);
    const std::optional<std::string> stored = store_.get(key);
    if (!stored)
        return result;

    ProgressDecodeResult decoded = decode_stored(bank_id, *stored);
    const std::string name = in_quotes(bank_id);
    const auto report = [&](std::string headline) {
        result.messages.push_back(std::move(headline));
        result.messages.insert(result.messages.end(), decoded.notes.begin(), decoded.notes.end());
        result.messages.insert(result.messages.end(), decoded.problems.begin(),
                               decoded.problems.end());
    };
    if (decoded.newer_version) {
        result.status = LoadStatus::NewerVersion;
        report("progress for " + name +
               " was saved by a newer ImQuiz; it is left untouched and will not be updated");
        return result;
    }
    if (decoded.record && decoded.problems.empty() && !decoded.migrated) {
        result.status = LoadStatus::Loaded;
        result.record = std::move(*decoded.record);
        return result;
    }

    const std::optional<std::string> copy_key =
        keep_before_replacing(store_, key, *stored, decoded);
    if (!decoded.record) {
        result.status = LoadStatus::MovedAside;
        if (copy_key && store_.remove(key))
            report("progress for " + name + " could not be read; it was moved to " +
                   in_quotes(*copy_key) + " and a fresh record started");
        else
            report("progress for " + name + " could not be read, nor moved aside (storage "
                   "refused); it was left in place and a fresh record started");
        return result;
    }
    result.record = std::move(*decoded.record);
    result.status = decoded.migrated ? LoadStatus::Migrated : LoadStatus::Salvaged;
    const std::string what =
        decoded.migrated ? "was migrated from version " + std::to_string(decoded.version) +
                               " to " + std::to_string(progress_format_version)
                         : "is partly unreadable; the readable part is kept";
    if (!copy_key) {
        report("progress for " + name + " " + what +
               ", in memory only: storage refused to keep a copy of the original, so it was "
               "not replaced");
        return result;
    }
    report("progress for " + name + " " + what + "; the original is kept as " +
           in_quotes(*copy_key));
    if (!store_.set(key, encode_progress(result.record)))
        result.messages.push_back("the updated record could not be saved (storage refused)");
    return result;
}

ProgressStore::SaveStatus ProgressStore::save(const ProgressRecord& record) {
    const std::string key = key_for(record.bank_id);
    ProgressRecord merged = record;
    if (const std::optional<std::string> stored = store_.get(key)) {
        const ProgressDecodeResult decoded = decode_stored(record.bank_id, *stored);
        if (decoded.newer_version)
            return SaveStatus::RefusedNewerVersion;
        if (!keep_before_replacing(store_, key, *stored, decoded))
            return SaveStatus::StorageFailed;   // never replace what could not be kept
        if (decoded.record)
            merge_progress(merged, *decoded.record);
    }
    return store_.set(key, encode_progress(merged)) ? SaveStatus::Saved
                                                    : SaveStatus::StorageFailed;
}

std::vector<std::string> ProgressStore::bank_ids() {
    std::vector<std::string> ids;
    const std::string records_prefix = prefix_ + "progress.";
    for (const std::string& key : store_.keys()) {
        if (key.compare(0, records_prefix.size(), records_prefix) != 0)
            continue;
        std::string id = key.substr(records_prefix.size());
        if (is_slug(id))   // backups and unreadable copies have a '.' in their suffix
            ids.push_back(std::move(id));
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::string ProgressStore::export_all(std::int64_t now_ms) {
    Json document = Json::object();
    document["format"] = std::string(export_format);
    document["version"] = export_format_version;
    document["exportedAtMs"] = now_ms;
    Json records = Json::array();
    const LoadLimits limits;
    for (const std::string& bank_id : bank_ids()) {
        const std::optional<std::string> stored = store_.get(key_for(bank_id));
        if (!stored)
            continue;
        // As stored, whatever its version: the importing side decodes and migrates it, so an
        // export never loses what this version cannot read.
        JsonReadResult parsed = read_json(*stored, "", limits);
        if (parsed.document && parsed.document->root().is_object())
            records.push_back(to_json(parsed.document->root()));
    }
    document["records"] = std::move(records);
    return dump_json(document);
}

ImportSummary ProgressStore::import_all(std::string_view json_text) {
    ImportSummary summary;
    std::vector<Diagnostic> diagnostics;
    const LoadLimits limits;
    DiagnosticCollector report("", limits.max_diagnostics, diagnostics);
    FieldReader read(report);
    const auto header_problems = [&]() {
        for (const Diagnostic& diagnostic : diagnostics)
            summary.problems.push_back(problem_text(diagnostic));
        return summary;
    };

    JsonReadResult parsed = read_json(json_text, "", limits);
    diagnostics = std::move(parsed.diagnostics);
    if (!parsed.document || has_errors(diagnostics))
        return header_problems();
    const JsonValue& root = parsed.document->root();
    if (!read.expect_object(root, ""))
        return header_problems();
    read.check_fields(root, "", {"format", "version", "exportedAtMs", "records"});
    if (const JsonValue* format = read.required(root, "", "format")) {
        const auto name = as_string(*format);
        if (!name || *name != export_format) {
            report.error("format", "not an ImQuiz progress export (format must be \"" +
                                       std::string(export_format) + "\")");
            return header_problems();
        }
    }
    if (const JsonValue* version = read.required(root, "", "version")) {
        auto number = read.whole_number(*version, "version");
        if (number && *number != export_format_version) {
            report.error("version", "unsupported export version " + std::to_string(*number) +
                                        ": this ImQuiz reads version 1");
            return header_problems();
        }
    }
    const JsonValue* records = read.required(root, "", "records");
    const auto* items = records == nullptr ? nullptr : read.array(*records, "records");
    header_problems();
    if (items == nullptr || has_errors(diagnostics))
        return summary;
    summary.ok = true;

    for (std::size_t i = 0; i < items->size(); ++i) {
        const std::string path = path_index("records", i);
        ProgressDecodeResult decoded = decode_json((*items)[i], path);
        summary.problems.insert(summary.problems.end(), decoded.problems.begin(),
                                decoded.problems.end());
        if (!decoded.record)
            continue;
        LoadResult local = load(decoded.record->bank_id);
        if (local.status == LoadStatus::NewerVersion) {
            summary.problems.push_back(path + ": progress for " +
                                       in_quotes(decoded.record->bank_id) +
                                       " here was saved by a newer ImQuiz; not imported");
            continue;
        }
        ImportSummary::BankImport bank_import;
        bank_import.bank_id = decoded.record->bank_id;
        bank_import.merge = merge_progress(local.record, *decoded.record);
        if (save(local.record) != SaveStatus::Saved) {
            summary.problems.push_back(path + ": progress for " + in_quotes(bank_import.bank_id) +
                                       " could not be saved (storage refused)");
            continue;
        }
        summary.banks.push_back(std::move(bank_import));
    }
    return summary;
}

} // namespace imquiz
