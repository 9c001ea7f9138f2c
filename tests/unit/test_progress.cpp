// Progress records: recording attempts, JSON round trips, migrations, merging two tabs, and the
// store rules (backups, unreadable records moved aside, newer versions left alone).
#include "engine_test_support.h"

#include "engine/progress.h"

#include <catch2/catch.hpp>

using namespace imquiz;
using imquiz::testing::bank_json;
using imquiz::testing::five_questions;
using imquiz::testing::load_valid_bank;
using Strings = std::vector<std::string>;

namespace {

const Bank& sample_bank() {
    static const Bank bank = load_valid_bank(bank_json(five_questions));
    return bank;
}

// Plays a whole attempt: the capital and the primes right, the rest wrong or skipped.
Session finished_session(std::uint64_t seed, std::int64_t start_ms) {
    const Bank& bank = sample_bank();
    Session session = start_session(bank, seed, SessionOptions{{}, start_ms});
    check(session, bank, Response::choices({"paris"}), start_ms + 1000);
    next(session, start_ms + 1000);
    check(session, bank, Response::choices({"two", "three", "five"}), start_ms + 2000);
    next(session, start_ms + 2000);
    check(session, bank, Response::boolean(true), start_ms + 3000);
    next(session, start_ms + 3000);
    next(session, start_ms + 4000);                                   // numeric skipped
    check(session, bank, Response::typed("porcupine"), start_ms + 5000);
    next(session, start_ms + 5000);
    return session;
}

// An attempt in progress: two questions checked, on the third.
Session session_in_progress(std::uint64_t seed) {
    const Bank& bank = sample_bank();
    Session session = start_session(bank, seed, SessionOptions{{}, 100});
    check(session, bank, Response::choices({"lyon"}), 200);
    next(session, 300);
    check(session, bank, Response::choices({"two", "four"}), 400);
    next(session, 500);
    return session;
}

ProgressRecord record_with_history() {
    ProgressRecord record;
    record.bank_id = "sample";
    record_finished_attempt(record, finished_session(1, 10'000), sample_bank(), 20'000);
    record_finished_attempt(record, finished_session(2, 30'000), sample_bank(), 40'000);
    record.attempt_in_progress = session_in_progress(3);
    return record;
}

Strings attempt_ids(const ProgressRecord& record) {
    Strings ids;
    for (const FinishedAttempt& attempt : record.finished_attempts)
        ids.push_back(attempt.attempt_id);
    return ids;
}

// A version-1 record, as the prototype wrote it.
const char* const version_1_record = R"({
  "version": 1,
  "quiz": "sample",
  "best": 80,
  "history": [
    {"finishedAt": 1700000000, "durationSeconds": 95, "correct": 4, "total": 5, "passed": true,
     "answers": {"capital": true, "primes": true, "earth-flat": true, "pi": true, "hedgehog": false}},
    {"finishedAt": 1700003600, "durationSeconds": 60, "correct": 1, "total": 2, "passed": false,
     "answers": {"capital": false, "pi": true}}
  ],
  "current": {"seed": 99, "index": 2, "answers": {"capital": true}},
  "stats": {"capital": {"seen": 2, "right": 1}, "pi": {"seen": 2, "right": 2}}
})";

} // namespace

TEST_CASE("recording finished attempts", "[progress]") {
    ProgressRecord record;
    record.bank_id = "sample";
    const Session session = finished_session(1, 10'000);
    record.attempt_in_progress = session;
    record_finished_attempt(record, session, sample_bank(), 20'000);

    REQUIRE(record.finished_attempts.size() == 1);
    const FinishedAttempt& attempt = record.finished_attempts[0];
    CHECK(attempt.attempt_id == session.attempt_id);
    CHECK(attempt.bank_fingerprint == bank_fingerprint(sample_bank()));
    CHECK(attempt.started_at_ms == 10'000);
    CHECK(attempt.finished_at_ms == 20'000);
    CHECK(attempt.duration_ms == 5'000);
    CHECK(attempt.score == 2.0);
    CHECK(attempt.max_score == 5.0);
    CHECK(attempt.percent == Approx(40.0));
    CHECK_FALSE(attempt.passed);
    REQUIRE(attempt.questions.size() == 5);
    CHECK(attempt.questions[3].outcome == Outcome::Skipped);
    CHECK(attempt.questions[4].response == Response::typed("porcupine"));

    SECTION("the attempt in progress is cleared, best and stats updated") {
        CHECK_FALSE(record.attempt_in_progress);
        CHECK(record.best_percent == Approx(40.0));
        CHECK(record.question_stats.at("capital").seen == 1);
        CHECK(record.question_stats.at("capital").correct == 1);
        CHECK(record.question_stats.at("pi").seen == 1);   // skipped still counts as seen
        CHECK(record.question_stats.at("pi").correct == 0);
        CHECK(record.question_stats.at("pi").last_seen_ms == 20'000);
    }
    SECTION("recording the same attempt twice changes nothing") {
        record_finished_attempt(record, session, sample_bank(), 25'000);
        CHECK(record.finished_attempts.size() == 1);
        CHECK(record.question_stats.at("capital").seen == 1);
    }
    SECTION("best is the maximum") {
        ProgressRecord better = record;
        better.best_percent = 90.0;
        record_finished_attempt(better, finished_session(2, 30'000), sample_bank(), 40'000);
        CHECK(better.best_percent == Approx(90.0));
    }
}

TEST_CASE("progress JSON round trip", "[progress]") {
    const ProgressRecord original = record_with_history();
    const std::string encoded = encode_progress(original);
    const ProgressDecodeResult decoded = decode_progress(encoded);
    REQUIRE(decoded.problems.empty());
    REQUIRE(decoded.record);
    CHECK(decoded.version == progress_format_version);
    CHECK_FALSE(decoded.migrated);
    CHECK_FALSE(decoded.newer_version);

    SECTION("encode -> decode -> encode is stable") {
        CHECK(encode_progress(*decoded.record) == encoded);
    }
    SECTION("the attempt in progress resumes exactly") {
        REQUIRE(decoded.record->attempt_in_progress);
        Session resumed = *decoded.record->attempt_in_progress;
        const Session& saved = *original.attempt_in_progress;
        CHECK(resumed.attempt_id == saved.attempt_id);
        CHECK(resumed.seed == saved.seed);
        CHECK(resumed.current == 2);
        CHECK(resumed.elapsed_ms == saved.elapsed_ms);
        CHECK(session_matches_bank(resumed, sample_bank()));
        CHECK(resumed.questions[1].answer->response == Response::choices({"two", "four"}));
        // Continuing the resumed attempt ends exactly like continuing the original.
        Session continued = saved;
        for (Session* session : {&resumed, &continued}) {
            resume_session(*session, 9'000);
            check(*session, sample_bank(), Response::boolean(false), 9'500);
            next(*session, 9'600);
        }
        CHECK(results(resumed, sample_bank()).percent == results(continued, sample_bank()).percent);
        CHECK(resumed.elapsed_ms == continued.elapsed_ms);
    }
    SECTION("a 64-bit seed survives (stored as hex: JSON numbers lose it in JavaScript)") {
        ProgressRecord record;
        record.bank_id = "sample";
        record.attempt_in_progress = start_session(sample_bank(), 0xFEDCBA9876543210ULL);
        const auto again = decode_progress(encode_progress(record));
        REQUIRE(again.record);
        CHECK(again.record->attempt_in_progress->seed == 0xFEDCBA9876543210ULL);
        CHECK(encode_progress(record).find("\"seed\":\"fedcba9876543210\"") != std::string::npos);
    }
    SECTION("an empty record") {
        ProgressRecord empty;
        empty.bank_id = "sample";
        CHECK(encode_progress(empty) ==
              R"({"version":2,"bankId":"sample","finished":[],"questionStats":{}})");
        const auto again = decode_progress(encode_progress(empty));
        REQUIRE(again.record);
        CHECK_FALSE(again.record->best_percent);
        CHECK_FALSE(again.record->attempt_in_progress);
    }
}

TEST_CASE("decoding never aborts on garbage, and says what is wrong", "[progress]") {
    const auto problems_of = [](std::string_view text) {
        const ProgressDecodeResult result = decode_progress(text);
        CHECK_FALSE(result.record);
        return result.problems;
    };
    SECTION("not JSON") {
        CHECK(problems_of("") == Strings{"file is empty"});
        CHECK(problems_of("{\"version\": 2,") ==
              Strings{"line 1, column 15: syntax error while parsing object key - unexpected end "
                      "of input; expected string literal"});
        CHECK(problems_of(std::string(100000, '[')) ==
              Strings{"line 1, column 65: nesting is deeper than the limit of 64 levels"});
    }
    SECTION("not a record") {
        CHECK(problems_of("[]") == Strings{"expected an object, got an array"});
        CHECK(problems_of("{}") == Strings{"missing required field \"version\""});
        CHECK(problems_of(R"({"version": "2"})") ==
              Strings{"version: expected a whole number, got a string"});
        CHECK(problems_of(R"({"version": 0})") == Strings{"version: unknown progress version 0"});
        CHECK(problems_of(R"({"version": 2})") == Strings{"missing required field \"bankId\""});
        CHECK(problems_of(R"({"version": 2, "bankId": "Not A Slug"})") ==
              Strings{"bankId: invalid id \"Not A Slug\": use lowercase letters, digits and "
                      "single hyphens, like \"sample\""});
    }
    SECTION("a newer version is recognised, not decoded") {
        const ProgressDecodeResult result =
            decode_progress(R"({"version": 3, "bankId": "sample", "somethingNew": []})");
        CHECK_FALSE(result.record);
        CHECK(result.newer_version);
        CHECK(result.version == 3);
        CHECK(result.problems ==
              Strings{"version: saved by a newer ImQuiz (progress version 3; this one reads up "
                      "to 2)"});
    }
    SECTION("broken parts are skipped, the rest salvaged") {
        const ProgressDecodeResult result = decode_progress(R"({
          "version": 2, "bankId": "sample", "bestPercent": 140, "colour": "red",
          "inProgress": {"attemptId": "x", "seed": "not-hex"},
          "finished": [
            {"attemptId": "good", "bankFingerprint": "", "startedAtMs": 1, "finishedAtMs": 2,
             "durationMs": 1, "score": 1, "maxScore": 1, "percent": 100, "passed": true,
             "questions": [{"id": "capital", "outcome": "correct", "score": 1}]},
            {"attemptId": "bad", "percent": "all"},
            {"attemptId": "good", "bankFingerprint": "", "startedAtMs": 1, "finishedAtMs": 2,
             "durationMs": 1, "score": 1, "maxScore": 1, "percent": 100, "passed": true,
             "questions": [{"id": "capital", "outcome": "brilliant", "score": 1}]}
          ],
          "questionStats": {"capital": {"seen": 1, "correct": 2, "lastSeenMs": 0},
                            "pi": {"seen": 3, "correct": 1, "lastSeenMs": 7}}
        })");
        REQUIRE(result.record);
        CHECK(result.problems == Strings{
            "unknown field \"colour\"",
            "bestPercent: must be between 0 and 100, got 140",
            "inProgress: missing required field \"bankFingerprint\"",
            "inProgress.seed: expected 1-16 lowercase hex digits, got \"not-hex\"",
            "inProgress: missing required field \"startedAtMs\"",
            "inProgress: missing required field \"elapsedMs\"",
            "inProgress: missing required field \"lastActivityMs\"",
            "inProgress: missing required field \"current\"",
            "inProgress: missing required field \"questions\"",
            "finished[1]: missing required field \"bankFingerprint\"",
            "finished[1]: missing required field \"startedAtMs\"",
            "finished[1]: missing required field \"finishedAtMs\"",
            "finished[1]: missing required field \"durationMs\"",
            "finished[1]: missing required field \"score\"",
            "finished[1]: missing required field \"maxScore\"",
            "finished[1].percent: expected a number, got a string",
            "finished[1]: missing required field \"passed\"",
            "finished[1]: missing required field \"questions\"",
            "finished[2].questions[0].outcome: unknown outcome \"brilliant\"",
            "questionStats.capital: needs 0 <= correct <= seen, got correct 2 of 1"});
        CHECK_FALSE(result.record->best_percent);
        CHECK_FALSE(result.record->attempt_in_progress);
        CHECK(attempt_ids(*result.record) == Strings{"good"});
        CHECK(result.record->question_stats.size() == 1);
        CHECK(result.record->question_stats.at("pi").last_seen_ms == 7);
    }
}

TEST_CASE("migrating a version 1 record", "[progress][migration]") {
    const ProgressDecodeResult result = decode_progress(version_1_record);
    REQUIRE(result.record);
    CHECK(result.problems.empty());
    CHECK(result.migrated);
    CHECK(result.version == 1);
    const ProgressRecord& record = *result.record;

    SECTION("fields renamed and converted") {
        CHECK(record.bank_id == "sample");
        CHECK(record.best_percent == Approx(80.0));
        REQUIRE(record.finished_attempts.size() == 2);
        const FinishedAttempt& first = record.finished_attempts[0];
        CHECK(first.finished_at_ms == 1'700'000'000'000);
        CHECK(first.started_at_ms == 1'699'999'905'000);
        CHECK(first.duration_ms == 95'000);
        CHECK(first.score == 4);
        CHECK(first.max_score == 5);
        CHECK(first.percent == Approx(80.0));
        CHECK(first.passed);
        CHECK(first.bank_fingerprint.empty());
        REQUIRE(first.questions.size() == 5);
        CHECK(first.questions[4].question_id == "hedgehog");
        CHECK(first.questions[4].outcome == Outcome::Wrong);
        CHECK_FALSE(first.questions[4].response);
        CHECK(record.finished_attempts[1].percent == Approx(50.0));
    }
    SECTION("attempt ids come from the content, so two tabs migrating agree") {
        CHECK(record.finished_attempts[0].attempt_id.rfind("v1-", 0) == 0);
        CHECK(record.finished_attempts[0].attempt_id.size() == 19);
        CHECK(record.finished_attempts[0].attempt_id != record.finished_attempts[1].attempt_id);
        CHECK(attempt_ids(*decode_progress(version_1_record).record) == attempt_ids(record));
    }
    SECTION("stats: \"right\" became \"correct\", last seen from the history") {
        CHECK(record.question_stats.at("capital").seen == 2);
        CHECK(record.question_stats.at("capital").correct == 1);
        CHECK(record.question_stats.at("capital").last_seen_ms == 1'700'003'600'000);
        CHECK(record.question_stats.at("pi").correct == 2);
    }
    SECTION("the attempt in progress cannot be resumed exactly: dropped, with a note") {
        CHECK_FALSE(record.attempt_in_progress);
        CHECK(result.notes ==
              Strings{"the attempt in progress was saved by an older ImQuiz without its question "
                      "order and cannot be resumed exactly; it was dropped"});
    }
    SECTION("re-encoded as the current version") {
        CHECK(encode_progress(record).rfind(R"({"version":2,"bankId":"sample",)", 0) == 0);
    }
    SECTION("a broken history entry is skipped and reported") {
        const ProgressDecodeResult broken = decode_progress(R"({"version": 1, "quiz": "sample",
            "history": [{"finishedAt": 1, "durationSeconds": 1, "correct": 3, "total": 2,
                         "passed": true, "answers": {}},
                        {"finishedAt": "yesterday", "durationSeconds": 1, "correct": 1,
                         "total": 1, "passed": true, "answers": {"pi": "yes"}}]})");
        REQUIRE(broken.record);
        CHECK(broken.record->finished_attempts.empty());
        CHECK(broken.problems ==
              Strings{"history[0]: needs 0 <= correct <= total and total > 0",
                      "history[1].finishedAt: expected a whole number, got a string",
                      "history[1].answers.pi: expected true or false, got a string"});
    }
}

TEST_CASE("reconciling a record with the bank as it is now", "[progress]") {
    ProgressRecord record = record_with_history();
    SECTION("same content: nothing to do") {
        CHECK(reconcile_with_bank(record, sample_bank()).empty());
        CHECK(record.attempt_in_progress);
    }
    SECTION("the fingerprint the app keeps for the bank is the one the attempt is held to") {
        CHECK(reconcile_with_bank(record, sample_bank(), bank_fingerprint(sample_bank())).empty());
        CHECK(record.attempt_in_progress);
        CHECK(reconcile_with_bank(record, sample_bank(), "another-bank-version").size() == 1);
        CHECK_FALSE(record.attempt_in_progress);
    }
    SECTION("edited bank: the attempt in progress goes, history and stats stay") {
        Bank edited = sample_bank();
        edited.questions[2].true_false_answer = true;
        CHECK(reconcile_with_bank(record, edited) ==
              Strings{"the attempt in progress was started on a different version of bank "
                      "\"sample\" and cannot be resumed; it was discarded (finished attempts and "
                      "question statistics are kept)",
                      "1 question(s) of bank \"sample\" changed or were removed since they were last "
                      "answered: they leave the review schedule"});
        CHECK_FALSE(record.attempt_in_progress);
        CHECK(record.finished_attempts.size() == 2);
        CHECK(record.question_stats.at("capital").seen == 2);
        CHECK(record.question_stats.at("capital").review);   // unchanged: still scheduled
        CHECK_FALSE(record.question_stats.at(edited.questions[2].id).review);
    }
    SECTION("a question removed: its stats stay; the others keep counting") {
        Bank edited = sample_bank();
        edited.questions.erase(edited.questions.begin() + 3);   // "pi"
        reconcile_with_bank(record, edited);
        Session session = start_session(edited, 4, SessionOptions{{}, 50'000});
        check(session, edited, Response::choices({"paris"}), 51'000);
        while (!is_finished(session))
            next(session, 52'000);
        record_finished_attempt(record, session, edited, 60'000);
        CHECK(record.question_stats.at("capital").seen == 3);
        CHECK(record.question_stats.at("capital").correct == 3);
        CHECK(record.question_stats.at("pi").seen == 2);
    }
}

TEST_CASE("merging two records (two browser tabs)", "[progress][merge]") {
    ProgressRecord base;
    base.bank_id = "sample";
    record_finished_attempt(base, finished_session(1, 10'000), sample_bank(), 20'000);

    ProgressRecord tab_a = base;
    ProgressRecord tab_b = base;
    record_finished_attempt(tab_a, finished_session(2, 30'000), sample_bank(), 40'000);
    record_finished_attempt(tab_b, finished_session(3, 50'000), sample_bank(), 60'000);
    tab_b.attempt_in_progress = session_in_progress(4);

    SECTION("union of finished attempts by id, nothing lost, stats not double counted") {
        ProgressRecord merged = tab_a;
        const MergeSummary summary = merge_progress(merged, tab_b);
        CHECK(summary.attempts_added == 1);
        CHECK(summary.attempts_already_present == 1);
        CHECK(summary.attempt_in_progress_taken);
        CHECK(merged.finished_attempts.size() == 3);
        CHECK(merged.question_stats.at("capital").seen == 3);
        CHECK(merged.question_stats.at("capital").last_seen_ms == 60'000);
        REQUIRE(merged.attempt_in_progress);
        CHECK(merged.attempt_in_progress->attempt_id == tab_b.attempt_in_progress->attempt_id);

        SECTION("both directions give the same history and stats") {
            ProgressRecord other_way = tab_b;
            merge_progress(other_way, tab_a);
            CHECK(attempt_ids(other_way) == attempt_ids(merged));
            CHECK(other_way.question_stats.at("capital").seen == 3);
            CHECK(other_way.question_stats.at("earth-flat").correct ==
                  merged.question_stats.at("earth-flat").correct);
        }
        SECTION("merging again changes nothing") {
            const std::string before = encode_progress(merged);
            const MergeSummary again = merge_progress(merged, tab_b);
            CHECK(again.attempts_added == 0);
            CHECK(encode_progress(merged) == before);
        }
    }
    SECTION("the receiving side keeps its own attempt in progress") {
        tab_a.attempt_in_progress = session_in_progress(5);
        merge_progress(tab_a, tab_b);
        CHECK(tab_a.attempt_in_progress->seed == 5);
    }
    SECTION("an attempt in progress that the other side finished is dropped") {
        const Session finished_elsewhere = finished_session(6, 70'000);
        tab_a.attempt_in_progress = finished_elsewhere;
        record_finished_attempt(tab_b, finished_elsewhere, sample_bank(), 80'000);
        SECTION("alone") {
            tab_b.attempt_in_progress.reset();
            merge_progress(tab_a, tab_b);
            CHECK_FALSE(tab_a.attempt_in_progress);
        }
        SECTION("replaced by the other side's attempt in progress") {
            merge_progress(tab_a, tab_b);
            REQUIRE(tab_a.attempt_in_progress);
            CHECK(tab_a.attempt_in_progress->seed == 4);
        }
    }
    SECTION("records of different banks are not merged") {
        ProgressRecord other;
        other.bank_id = "other";
        record_finished_attempt(other, finished_session(7, 0), sample_bank(), 1);
        const MergeSummary summary = merge_progress(tab_a, other);
        CHECK(summary.attempts_added == 0);
        CHECK(tab_a.finished_attempts.size() == 2);
    }
    SECTION("best is the maximum of both") {
        tab_b.best_percent = 95.0;
        merge_progress(tab_a, tab_b);
        CHECK(tab_a.best_percent == Approx(95.0));
    }
}

TEST_CASE("what a merge would add to a stored record (two tabs writing back)", "[progress][merge]") {
    ProgressRecord stored;
    stored.bank_id = "sample";
    record_finished_attempt(stored, finished_session(1, 10'000), sample_bank(), 20'000);
    ProgressRecord tab = stored;

    SECTION("the same history adds nothing") { CHECK_FALSE(merge_adds_to(stored, tab)); }
    SECTION("a finished attempt storage lacks") {
        record_finished_attempt(tab, finished_session(2, 30'000), sample_bank(), 40'000);
        CHECK(merge_adds_to(stored, tab));
        CHECK_FALSE(merge_adds_to(tab, stored));   // the other way, nothing: storage has less
    }
    SECTION("storage's attempt in progress, which this tab finished") {
        const Session attempt = finished_session(2, 30'000);
        stored.attempt_in_progress = attempt;
        record_finished_attempt(tab, attempt, sample_bank(), 40'000);
        CHECK(merge_adds_to(stored, tab));
        ProgressRecord written = stored;
        merge_progress(written, tab);
        CHECK_FALSE(written.attempt_in_progress);
        CHECK_FALSE(merge_adds_to(written, tab));   // once written, the same event adds nothing
    }
    SECTION("an attempt in progress where storage has none") {
        tab.attempt_in_progress = session_in_progress(3);
        CHECK(merge_adds_to(stored, tab));
    }
    SECTION("two attempts in progress: storage keeps its own (no ping-pong between two tabs)") {
        stored.attempt_in_progress = session_in_progress(3);
        tab.attempt_in_progress = session_in_progress(4);
        CHECK_FALSE(merge_adds_to(stored, tab));
        CHECK_FALSE(merge_adds_to(tab, stored));
    }
    SECTION("an attempt storage has pruned (counted in earlier_attempts) is not added again") {
        record_finished_attempt(tab, finished_session(2, 30'000), sample_bank(), 40'000);
        record_finished_attempt(tab, finished_session(3, 50'000), sample_bank(), 60'000);
        ProgressRecord pruned = tab;
        prune_finished_attempts(pruned, 2);
        REQUIRE(pruned.earlier_attempts == 1);
        CHECK_FALSE(merge_adds_to(pruned, tab));
    }
}

TEST_CASE("ProgressStore", "[progress][store]") {
    MemoryStore memory;
    ProgressStore store(memory, "test.");

    SECTION("nothing stored: a fresh record for the bank") {
        const auto loaded = store.load("sample");
        CHECK(loaded.status == ProgressStore::LoadStatus::NoRecord);
        CHECK(loaded.record.bank_id == "sample");
        CHECK(loaded.messages.empty());
    }
    SECTION("save then load") {
        const ProgressRecord record = record_with_history();
        CHECK(store.save(record) == ProgressStore::SaveStatus::Saved);
        CHECK(memory.keys() == Strings{"test.progress.sample"});
        const auto loaded = store.load("sample");
        CHECK(loaded.status == ProgressStore::LoadStatus::Loaded);
        CHECK(encode_progress(loaded.record) == encode_progress(record));
        CHECK(store.bank_ids() == Strings{"sample"});
    }
    SECTION("key prefixes keep stores apart") {
        store.save(record_with_history());
        ProgressStore other(memory, "other.");
        CHECK(other.load("sample").status == ProgressStore::LoadStatus::NoRecord);
        CHECK(other.bank_ids().empty());
        CHECK(store.key_for("sample") == "test.progress.sample");
    }
    SECTION("a second tab's finished attempts survive this tab's save") {
        ProgressRecord tab_a = store.load("sample").record;
        ProgressRecord tab_b = store.load("sample").record;
        record_finished_attempt(tab_a, finished_session(1, 0), sample_bank(), 10);
        CHECK(store.save(tab_a) == ProgressStore::SaveStatus::Saved);
        record_finished_attempt(tab_b, finished_session(2, 0), sample_bank(), 20);
        tab_b.attempt_in_progress = session_in_progress(3);
        CHECK(store.save(tab_b) == ProgressStore::SaveStatus::Saved);
        const auto loaded = store.load("sample");
        CHECK(loaded.record.finished_attempts.size() == 2);
        CHECK(loaded.record.question_stats.at("capital").seen == 2);
        CHECK(loaded.record.attempt_in_progress->seed == 3);
    }
    SECTION("an old version: backed up, then migrated and saved") {
        memory.set("test.progress.sample", version_1_record);
        const auto loaded = store.load("sample");
        CHECK(loaded.status == ProgressStore::LoadStatus::Migrated);
        CHECK(loaded.messages ==
              Strings{"progress for \"sample\" was migrated from version 1 to 2; the original is "
                      "kept as \"test.progress.sample.backup-v1\"",
                      "the attempt in progress was saved by an older ImQuiz without its question "
                      "order and cannot be resumed exactly; it was dropped"});
        CHECK(memory.get("test.progress.sample.backup-v1") ==
              std::optional<std::string>(version_1_record));
        CHECK(memory.get("test.progress.sample") ==
              std::optional<std::string>(encode_progress(loaded.record)));
        CHECK(store.load("sample").status == ProgressStore::LoadStatus::Loaded);
        CHECK(store.bank_ids() == Strings{"sample"});

        SECTION("an existing backup is never overwritten") {
            memory.set("test.progress.sample", version_1_record);
            store.load("sample");
            CHECK(memory.get("test.progress.sample.backup-v1-2"));
        }
    }
    SECTION("an unreadable record is moved aside, never overwritten") {
        memory.set("test.progress.sample", "{garbage");
        const auto loaded = store.load("sample");
        CHECK(loaded.status == ProgressStore::LoadStatus::MovedAside);
        CHECK(loaded.messages ==
              Strings{"progress for \"sample\" could not be read; it was moved to "
                      "\"test.progress.sample.unreadable\" and a fresh record started",
                      "line 1, column 2: syntax error while parsing object key - invalid "
                      "literal; last read: '{g'; expected string literal"});
        CHECK(memory.get("test.progress.sample.unreadable") ==
              std::optional<std::string>("{garbage"));
        CHECK_FALSE(memory.get("test.progress.sample"));
        CHECK(loaded.record.finished_attempts.empty());

        memory.set("test.progress.sample", "[]");
        store.load("sample");
        CHECK(memory.get("test.progress.sample.unreadable") ==
              std::optional<std::string>("{garbage"));
        CHECK(memory.get("test.progress.sample.unreadable-2") == std::optional<std::string>("[]"));
    }
    SECTION("a record under another bank's key is unreadable here") {
        ProgressRecord other;
        other.bank_id = "other";
        memory.set("test.progress.sample", encode_progress(other));
        const auto loaded = store.load("sample");
        CHECK(loaded.status == ProgressStore::LoadStatus::MovedAside);
        CHECK(loaded.messages.back() ==
              "bankId: the record is for bank \"other\", not \"sample\"");
    }
    SECTION("a partly unreadable record: the original copied aside, the rest kept") {
        ProgressRecord record = record_with_history();
        std::string text = encode_progress(record);
        text.insert(1, R"("mystery":1,)");
        memory.set("test.progress.sample", text);
        const auto loaded = store.load("sample");
        CHECK(loaded.status == ProgressStore::LoadStatus::Salvaged);
        CHECK(loaded.messages ==
              Strings{"progress for \"sample\" is partly unreadable; the readable part is kept; "
                      "the original is kept as \"test.progress.sample.unreadable\"",
                      "unknown field \"mystery\""});
        CHECK(memory.get("test.progress.sample.unreadable") == std::optional<std::string>(text));
        CHECK(loaded.record.finished_attempts.size() == 2);
        CHECK(store.load("sample").status == ProgressStore::LoadStatus::Loaded);
    }
    SECTION("a record from a newer version is left untouched, and saving over it is refused") {
        const std::string newer = R"({"version": 7, "bankId": "sample", "whatever": true})";
        memory.set("test.progress.sample", newer);
        const auto loaded = store.load("sample");
        CHECK(loaded.status == ProgressStore::LoadStatus::NewerVersion);
        CHECK(loaded.messages ==
              Strings{"progress for \"sample\" was saved by a newer ImQuiz; it is left untouched "
                      "and will not be updated",
                      "version: saved by a newer ImQuiz (progress version 7; this one reads up to "
                      "2)"});
        CHECK(store.save(record_with_history()) == ProgressStore::SaveStatus::RefusedNewerVersion);
        CHECK(memory.get("test.progress.sample") == std::optional<std::string>(newer));
        CHECK(memory.keys() == Strings{"test.progress.sample"});
    }
    SECTION("storage failures lose nothing") {
        memory.set("test.progress.sample", "{garbage");
        memory.set_read_only(true);
        const auto loaded = store.load("sample");
        CHECK(loaded.status == ProgressStore::LoadStatus::MovedAside);
        CHECK(loaded.messages.front() ==
              "progress for \"sample\" could not be read, nor moved aside (storage refused); it "
              "was left in place and a fresh record started");
        CHECK(store.save(record_with_history()) == ProgressStore::SaveStatus::StorageFailed);
        CHECK(memory.get("test.progress.sample") == std::optional<std::string>("{garbage"));
    }
}

TEST_CASE("export and import of all progress", "[progress][export]") {
    MemoryStore laptop_memory;
    ProgressStore laptop(laptop_memory);
    laptop.save(record_with_history());
    ProgressRecord other_bank;
    other_bank.bank_id = "other-bank";
    other_bank.best_percent = 12.5;
    laptop.save(other_bank);
    const std::string exported = laptop.export_all(123);
    CHECK(exported.rfind(R"({"format":"imquiz-progress-export","version":1,"exportedAtMs":123,)",
                         0) == 0);

    MemoryStore phone_memory;
    ProgressStore phone(phone_memory);
    ProgressRecord phone_record;
    phone_record.bank_id = "sample";
    record_finished_attempt(phone_record, finished_session(9, 0), sample_bank(), 99);
    phone.save(phone_record);

    SECTION("merged into what is there, with a summary") {
        const ImportSummary summary = phone.import_all(exported);
        CHECK(summary.ok);
        CHECK(summary.problems.empty());
        REQUIRE(summary.banks.size() == 2);
        CHECK(summary.banks[0].bank_id == "other-bank");
        CHECK(summary.banks[1].bank_id == "sample");
        CHECK(summary.banks[1].merge.attempts_added == 2);
        CHECK(summary.banks[1].merge.attempts_already_present == 0);
        CHECK(summary.banks[1].merge.attempt_in_progress_taken);
        CHECK(phone.load("sample").record.finished_attempts.size() == 3);
        CHECK(phone.load("other-bank").record.best_percent == Approx(12.5));

        SECTION("importing the same file again adds nothing") {
            const ImportSummary again = phone.import_all(exported);
            CHECK(again.banks[1].merge.attempts_added == 0);
            CHECK(again.banks[1].merge.attempts_already_present == 2);
            CHECK(phone.load("sample").record.finished_attempts.size() == 3);
        }
    }
    SECTION("old records in an export are migrated on import") {
        const std::string old_export =
            std::string(R"({"format":"imquiz-progress-export","version":1,"records":[)") +
            version_1_record + "]}";
        const ImportSummary summary = phone.import_all(old_export);
        CHECK(summary.problems.empty());
        REQUIRE(summary.banks.size() == 1);
        CHECK(summary.banks[0].merge.attempts_added == 2);
    }
    SECTION("problems are reported with their place in the file") {
        const ImportSummary summary = phone.import_all(R"({"format": "imquiz-progress-export",
            "version": 1, "records": [
              "nonsense",
              {"version": 9, "bankId": "sample"},
              {"version": 2, "bankId": "sample", "finished": [{"attemptId": 3}]}]})");
        CHECK(summary.ok);
        CHECK(summary.problems == Strings{
            "records[0]: expected an object, got a string",
            "records[1].version: saved by a newer ImQuiz (progress version 9; this one reads up "
            "to 2)",
            "records[2].finished[0].attemptId: expected a string, got a number",
            "records[2].finished[0]: missing required field \"bankFingerprint\"",
            "records[2].finished[0]: missing required field \"startedAtMs\"",
            "records[2].finished[0]: missing required field \"finishedAtMs\"",
            "records[2].finished[0]: missing required field \"durationMs\"",
            "records[2].finished[0]: missing required field \"score\"",
            "records[2].finished[0]: missing required field \"maxScore\"",
            "records[2].finished[0]: missing required field \"percent\"",
            "records[2].finished[0]: missing required field \"passed\"",
            "records[2].finished[0]: missing required field \"questions\""});
        REQUIRE(summary.banks.size() == 1);   // the readable rest of records[2]
        CHECK(summary.banks[0].merge.attempts_added == 0);
    }
    SECTION("not an export") {
        const ImportSummary summary = phone.import_all(R"({"format": "imquiz-bank"})");
        CHECK_FALSE(summary.ok);
        CHECK(summary.problems ==
              Strings{"format: not an ImQuiz progress export (format must be "
                      "\"imquiz-progress-export\")"});
        CHECK_FALSE(phone.import_all("garbage").ok);
        CHECK(phone.import_all("garbage").problems ==
              Strings{"line 1, column 1: syntax error while parsing value - invalid literal; "
                      "last read: 'g'"});
    }
}
