#include "engine/progress/migrations.h"

#include "engine/hash.h"
#include "engine/json/fields.h"
#include "engine/json/writer.h"
#include "engine/progress.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

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
std::string migrate_v1_to_v2(const JsonValue& v1, MigrationContext& context) {
    DiagnosticCollector& report = context.report;
    FieldReader read(report);
    read.check_fields(v1, "", {"version", "quiz", "best", "history", "current", "stats"});
    JsonWriter v2;
    v2.begin_object();
    v2.key("version").integer(2);
    // The attempt ids below hash the bank id as JSON (null when absent), as version 1 wrote it.
    JsonWriter bank_id;
    if (const JsonValue* quiz = read.required(v1, "", "quiz")) {
        v2.key("bankId").value(*quiz);
        bank_id.value(*quiz);
    } else {
        bank_id.null();
    }
    const std::string bank_id_json = bank_id.take();
    if (const JsonValue* best = find_field(v1, "best"))
        v2.key("bestPercent").value(*best);

    std::map<std::string, std::int64_t> last_seen_ms;
    v2.key("finished").begin_array();
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
        std::vector<std::pair<std::string, bool>> answered;   // question id, right
        const JsonValue* answers = read.required(entry, path, "answers");
        if (answers != nullptr && read.expect_object(*answers, path_field(path, "answers"))) {
            for (const JsonValue& right : answers->children()) {
                const std::string question_id(right.key());
                auto flag = read.boolean(right, path_field(path_field(path, "answers"), question_id));
                if (!flag)
                    continue;
                answered.emplace_back(question_id, *flag);
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
        id.text(bank_id_json);
        JsonWriter entry_json;
        entry_json.value(entry);
        id.text(entry_json.take());
        v2.begin_object();
        v2.key("attemptId").string("v1-" + to_hex(id.value()));
        v2.key("bankFingerprint").string("");
        v2.key("startedAtMs").integer(milliseconds(finished_at - duration));
        v2.key("finishedAtMs").integer(milliseconds(finished_at));
        v2.key("durationMs").integer(milliseconds(duration));
        v2.key("score").integer(correct);
        v2.key("maxScore").integer(total);
        v2.key("percent").number(100.0 * static_cast<double>(correct) / static_cast<double>(total));
        v2.key("passed").boolean(passed);
        v2.key("questions").begin_array();
        for (const auto& [question_id, right] : answered) {
            v2.begin_object();
            v2.key("id").string(question_id);
            v2.key("outcome").string(right ? "correct" : "wrong");
            v2.key("score").integer(right ? 1 : 0);
            v2.end_object();
        }
        v2.end_array();
        v2.end_object();
    }
    v2.end_array();

    v2.key("questionStats").begin_object();
    if (const JsonValue* old_stats = find_field(v1, "stats"); old_stats != nullptr &&
                                                         read.expect_object(*old_stats, "stats")) {
        for (const JsonValue& entry : old_stats->children()) {
            const std::string question_id(entry.key());
            const std::string path = path_field("stats", question_id);
            if (!read.expect_object(entry, path))
                continue;
            read.check_fields(entry, path, {"seen", "right"});
            v2.key(question_id).begin_object();
            if (const JsonValue* seen = read.required(entry, path, "seen"))
                v2.key("seen").value(*seen);
            if (const JsonValue* right = read.required(entry, path, "right"))
                v2.key("correct").value(*right);   // renamed in version 2
            auto last = last_seen_ms.find(question_id);
            v2.key("lastSeenMs").integer(last == last_seen_ms.end() ? 0 : last->second);
            v2.end_object();
        }
    }
    v2.end_object();
    v2.end_object();

    if (find_field(v1, "current") != nullptr)
        context.notes.push_back("the attempt in progress was saved by an older ImQuiz without its "
                                "question order and cannot be resumed exactly; it was dropped");
    return v2.take();
}

using Migration = std::string (*)(const JsonValue&, MigrationContext&);
// migrations[N] takes version N to N + 1.
constexpr Migration migrations[progress_format_version] = {nullptr, migrate_v1_to_v2};

} // namespace

std::string migrate_record(int version, const JsonValue& record, MigrationContext& context) {
    return migrations[version](record, context);
}

} // namespace imquiz
