// Progress that cannot grow without bound or flood the learner (issue 24, audit finding F2/F6):
// the import's size limit and bounded problems, records merged and saved once, attempts pruned
// with their counts kept, and deleting a bank's or all progress.
#include "engine/progress.h"
#include "engine/unicode.h"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

using namespace imquiz;

namespace {

// A MemoryStore that counts writes per key: "each bank saved once".
class CountingStore final : public KeyValueStore {
public:
    std::optional<std::string> get(std::string_view key) override { return memory.get(key); }
    bool set(std::string_view key, std::string_view value) override {
        ++writes[std::string(key)];
        return memory.set(key, value);
    }
    bool remove(std::string_view key) override { return memory.remove(key); }
    std::vector<std::string> keys() override { return memory.keys(); }

    MemoryStore memory;
    std::map<std::string, int> writes;
};

// One finished attempt of one question, `q1`, right when `correct`; attempt `n` finishes at
// n tenths of a second. About 205 bytes: 20,000 of them are a file like the audit's.
std::string attempt_json(int n, bool correct) {
    const std::string finished = std::to_string(n * 100LL);
    return R"({"attemptId":"a)" + std::to_string(n) +
           R"(","bankFingerprint":"","startedAtMs":)" + finished + R"(,"finishedAtMs":)" +
           finished + R"(,"durationMs":0,"score":)" + (correct ? "1" : "0") +
           R"(,"maxScore":1,"percent":)" + (correct ? "100" : "0") +
           R"(,"passed":)" + (correct ? "true" : "false") +
           R"(,"questions":[{"id":"q1","outcome":")" + (correct ? "correct" : "wrong") +
           R"(","score":)" + (correct ? "1" : "0") + "}]}";
}

// A record of `sample` with attempts [first, first + count), every third one right, and the
// statistics those attempts make.
std::string record_json(int first, int count) {
    std::string json = R"({"version":2,"bankId":"sample","bestPercent":100,"finished":[)";
    int correct = 0;
    for (int n = first; n < first + count; ++n) {
        json += (n > first ? "," : "") + attempt_json(n, n % 3 == 0);
        correct += n % 3 == 0 ? 1 : 0;
    }
    return json + R"(],"questionStats":{"q1":{"seen":)" + std::to_string(count) +
           R"(,"correct":)" + std::to_string(correct) + R"(,"lastSeenMs":)" +
           std::to_string((first + count - 1) * 100LL) + "}}}";
}

std::string export_of(const std::vector<std::string>& records) {
    std::string json = R"({"format":"imquiz-progress-export","version":1,"records":[)";
    for (std::size_t i = 0; i < records.size(); ++i)
        json += (i > 0 ? "," : "") + records[i];
    return json + "]}";
}

FinishedAttempt finished(int n) {
    FinishedAttempt attempt;
    attempt.attempt_id = "a" + std::to_string(n);
    attempt.finished_at_ms = n * 100LL;
    attempt.max_score = 1;
    attempt.score = n % 2;
    attempt.percent = 100.0 * (n % 2);
    AttemptQuestion question;
    question.question_id = "q1";
    question.outcome = n % 2 == 1 ? Outcome::Correct : Outcome::Wrong;
    attempt.questions.push_back(question);
    return attempt;
}

// What record_finished_attempt does, without playing a session: the attempt, its statistics,
// the best score.
void add_finished(ProgressRecord& record, int n) {
    ProgressRecord one;
    one.bank_id = record.bank_id;
    one.finished_attempts.push_back(finished(n));
    one.best_percent = one.finished_attempts.back().percent;
    one.question_stats["q1"] = QuestionStats{1, n % 2, n * 100LL};
    merge_progress(record, one);
}

}  // namespace

TEST_CASE("Progress import: regression F2, a file over the limit is refused before it is read",
          "[progress][limits]") {
    MemoryStore memory;
    ProgressStore store(memory);
    // A valid export padded with spaces: read, it would import one attempt.
    std::string file = export_of({record_json(0, 1)});
    const std::size_t limit = ProgressLimits{}.max_import_bytes;
    REQUIRE(limit == 4 * 1024 * 1024);
    file.append(limit + 1 - file.size(), ' ');
    const ImportSummary summary = store.import_all(file);
    CHECK_FALSE(summary.ok);
    CHECK(summary.problems == std::vector<std::string>{
                                  "the file is too large: 4194305 bytes (the limit is 4194304 "
                                  "bytes, 4 MiB)"});
    CHECK(store.bank_ids().empty());
    SECTION("one byte less is read and imported") {
        file.pop_back();
        CHECK(store.import_all(file).ok);
        CHECK(store.bank_ids() == std::vector<std::string>{"sample"});
    }
}

TEST_CASE("Progress import: regression F2, problems are listed up to a bound, each short",
          "[progress][limits]") {
    MemoryStore memory;
    ProgressStore store(memory);
    SECTION("50,000 broken records: 20 problems and the count of the others") {
        std::string file = R"({"format":"imquiz-progress-export","version":1,"records":[)";
        for (int i = 0; i < 50'000; ++i)
            file += std::string(i > 0 ? "," : "") + R"({"version":2,"bankId":"Not-A-Slug"})";
        file += "]}";
        const ImportSummary summary = store.import_all(file);
        CHECK(summary.ok);
        REQUIRE(summary.problems.size() == 21);
        CHECK(summary.problems[0] == "records[0].bankId: invalid id \"Not-A-Slug\": use lowercase "
                                     "letters, digits and single hyphens, like \"sample\"");
        CHECK(summary.problems[20] == "\u2026 and 49980 more problems");
    }
    SECTION("a problem that quotes 60 KiB of the file is cut, never inside a character") {
        std::string name;
        for (int i = 0; i < 30'000; ++i)
            name += "\u00e9";   // two bytes: the cut at 200 falls inside one
        const std::string file =
            export_of({R"({"version":2,"bankId":"sample","finished":[],"questionStats":{},")" +
                       name + R"(":1})"});
        const ImportSummary summary = store.import_all(file);
        REQUIRE(summary.problems.size() == 1);
        const std::string& problem = summary.problems[0];
        CHECK(problem.size() <= ProgressLimits{}.max_problem_bytes + 3);
        CHECK(problem.rfind("records[0]: unknown field \"\u00e9\u00e9", 0) == 0);
        CHECK(is_valid_utf8(problem));
        CHECK(problem.substr(problem.size() - 3) == "\u2026");
    }
}

TEST_CASE("Progress import: records of a bank are merged in memory and the bank saved once",
          "[progress][limits]") {
    CountingStore counting;
    ProgressStore store(counting);
    std::vector<std::string> records;
    for (int i = 0; i < 100; ++i)
        records.push_back(record_json(i, 1));
    const ImportSummary summary = store.import_all(export_of(records));
    REQUIRE(summary.banks.size() == 1);
    CHECK(summary.banks[0].merge.attempts_added == 100);
    CHECK(counting.writes["imquiz.progress.sample"] == 1);
    const ProgressRecord stored = store.load("sample").record;
    CHECK(attempt_count(stored) == 100);
    CHECK(stored.question_stats.at("q1").seen == 100);
}

TEST_CASE("Progress import: regression F2/F6, 20,000 attempts keep 50, counts over all",
          "[progress][limits]") {
    MemoryStore memory;
    ProgressStore store(memory);
    const std::string file = export_of({record_json(0, 20'000)});
    CHECK(file.size() > 3'900'000);
    CHECK(file.size() < ProgressLimits{}.max_import_bytes);
    const ImportSummary summary = store.import_all(file);
    CHECK(summary.problems.empty());
    REQUIRE(summary.banks.size() == 1);
    CHECK(summary.banks[0].merge.attempts_added == 20'000);
    CHECK(summary.banks[0].attempts_pruned == 19'950);
    // What every later save decodes and encodes again: 50 attempts, not 20,000.
    const std::string stored_text = *memory.get(store.key_for("sample"));
    CHECK(stored_text.size() < 20'000);
    const ProgressDecodeResult stored = decode_progress(stored_text);
    REQUIRE(stored.record);
    CHECK(stored.problems.empty());
    CHECK(stored.record->finished_attempts.size() == 50);
    CHECK(stored.record->finished_attempts.front().attempt_id == "a19950");   // the most recent
    CHECK(stored.record->earlier_attempts == 19'950);
    CHECK(attempt_count(*stored.record) == 20'000);
    CHECK(stored.record->question_stats.at("q1").seen == 20'000);
    CHECK(stored.record->question_stats.at("q1").correct == 6'667);   // n % 3 == 0
    CHECK(stored.record->best_percent == Approx(100));
    SECTION("importing the same file again adds nothing") {
        const ImportSummary again = store.import_all(file);
        CHECK(again.banks[0].merge.attempts_added == 0);
        CHECK(attempt_count(store.load("sample").record) == 20'000);
        CHECK(store.load("sample").record.question_stats.at("q1").seen == 20'000);
    }
}

TEST_CASE("Progress records are pruned on every save, their counts kept", "[progress][limits]") {
    MemoryStore memory;
    ProgressStore store(memory);
    ProgressRecord record;
    record.bank_id = "sample";
    for (int n = 0; n < 60; ++n)
        add_finished(record, n);
    REQUIRE(store.save(record) == ProgressStore::SaveStatus::Saved);
    const ProgressRecord loaded = store.load("sample").record;
    CHECK(loaded.finished_attempts.size() == 50);
    CHECK(loaded.finished_attempts.front().attempt_id == "a10");
    CHECK(loaded.earlier_attempts == 10);
    CHECK(attempt_count(loaded) == 60);
    CHECK(loaded.question_stats.at("q1").seen == 60);
    CHECK(loaded.question_stats.at("q1").correct == 30);
    CHECK(loaded.best_percent == Approx(100));

    SECTION("two tabs that both pruned count every attempt once") {
        ProgressRecord tab_a = store.load("sample").record;
        ProgressRecord tab_b = store.load("sample").record;
        add_finished(tab_a, 100);
        REQUIRE(store.save(tab_a) == ProgressStore::SaveStatus::Saved);
        add_finished(tab_b, 101);
        REQUIRE(store.save(tab_b) == ProgressStore::SaveStatus::Saved);
        const ProgressRecord both = store.load("sample").record;
        CHECK(both.finished_attempts.size() == 50);
        CHECK(both.finished_attempts.back().attempt_id == "a101");
        CHECK(attempt_count(both) == 62);
        CHECK(both.question_stats.at("q1").seen == 62);
    }
    SECTION("an old record over the bound loads pruned") {
        std::string big = R"({"version":2,"bankId":"sample","finished":[)";
        for (int n = 0; n < 70; ++n)
            big += (n > 0 ? "," : "") + attempt_json(n, true);
        big += R"(],"questionStats":{"q1":{"seen":70,"correct":70,"lastSeenMs":0}}})";
        memory.set(store.key_for("sample"), big);
        const ProgressStore::LoadResult result = store.load("sample");
        CHECK(result.status == ProgressStore::LoadStatus::Loaded);
        CHECK(result.record.finished_attempts.size() == 50);
        CHECK(attempt_count(result.record) == 70);
    }
}

TEST_CASE("earlierAttempts in the record's JSON", "[progress][limits]") {
    ProgressRecord record;
    record.bank_id = "sample";
    SECTION("a record never pruned is written exactly as before") {
        CHECK(encode_progress(record) ==
              R"({"version":2,"bankId":"sample","finished":[],"questionStats":{}})");
    }
    SECTION("round trip") {
        record.earlier_attempts = 12;
        const std::string json = encode_progress(record);
        CHECK(json == R"({"version":2,"bankId":"sample","earlierAttempts":12,"finished":[],)"
                      R"("questionStats":{}})");
        CHECK(decode_progress(json).record->earlier_attempts == 12);
    }
    SECTION("a negative count is a problem, the rest is kept") {
        const ProgressDecodeResult decoded = decode_progress(
            R"({"version":2,"bankId":"sample","earlierAttempts":-1,"finished":[],"questionStats":{}})");
        REQUIRE(decoded.record);
        CHECK(decoded.record->earlier_attempts == 0);
        CHECK(decoded.problems ==
              std::vector<std::string>{"earlierAttempts: must be between 0 and 2147483647, got -1"});
    }
}

TEST_CASE("Deleting progress", "[progress][delete]") {
    MemoryStore memory;
    ProgressStore store(memory);
    ProgressRecord sample;
    sample.bank_id = "sample";
    add_finished(sample, 1);
    store.save(sample);
    ProgressRecord other = sample;
    other.bank_id = "sample-2";   // an id that starts with the other one
    store.save(other);
    memory.set("imquiz.progress.sample.backup-v1", "{}");
    memory.set("imquiz.progress.sample.unreadable-2", "garbage");
    memory.set("imquiz.settings", R"({"theme":"dark"})");
    memory.set("elsewhere.progress.sample", "{}");   // another deployment's prefix

    SECTION("this bank's progress: its record, backups and unreadable copies") {
        CHECK(store.delete_progress("sample"));
        CHECK(memory.keys() == std::vector<std::string>{"elsewhere.progress.sample",
                                                        "imquiz.progress.sample-2",
                                                        "imquiz.settings"});
        CHECK(store.load("sample").status == ProgressStore::LoadStatus::NoRecord);
        CHECK(store.delete_progress("never-played"));
    }
    SECTION("all progress: settings and other prefixes stay") {
        CHECK(store.delete_all_progress());
        CHECK(memory.keys() ==
              std::vector<std::string>{"elsewhere.progress.sample", "imquiz.settings"});
        CHECK(store.bank_ids().empty());
    }
    SECTION("storage that refuses says so") {
        memory.set_read_only(true);
        CHECK_FALSE(store.delete_progress("sample"));
        CHECK_FALSE(store.delete_all_progress());
        CHECK(store.bank_ids() == std::vector<std::string>{"sample", "sample-2"});
    }
}
