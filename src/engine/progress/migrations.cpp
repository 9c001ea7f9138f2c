#include "engine/progress/migrations.h"

#include "engine/hash.h"
#include "engine/json/fields.h"
#include "engine/progress.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace imquiz {
namespace {

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

} // namespace

Json migrate_record(int version, const JsonValue& record, MigrationContext& context) {
    return migrations[version](record, context);
}

} // namespace imquiz
