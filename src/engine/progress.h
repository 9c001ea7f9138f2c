// A learner's progress on one bank, its JSON form (versioned, with migrations), and a store for
// it on top of KeyValueStore. Nothing here throws or aborts: garbage in storage is reported and
// kept aside, never silently overwritten.
#pragma once

#include "engine/bank.h"
#include "engine/limits.h"
#include "engine/schedule.h"
#include "engine/session.h"
#include "engine/storage.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz {

// Version 1 was the shape of the first prototype (no attempt ids, no fingerprint, durations in
// seconds, answers as question -> right/wrong); decode_progress migrates it step by step.
constexpr int progress_format_version = 2;

struct QuestionStats {
    int seen = 0;                 // finished attempts that included the question
    int correct = 0;              // ... and got it fully right
    std::int64_t last_seen_ms = 0;
    std::optional<ReviewCard> review;   // when to ask it again (schedule.h); none before its first answer
};

struct AttemptQuestion {
    std::string question_id;
    Outcome outcome = Outcome::Skipped;
    double score = 0;
    std::optional<Response> response;   // absent when skipped (and for migrated v1 attempts)
    int tries = 0;                      // tries made, when more than one (else 0 is written as absent)
    std::size_t hints_used = 0;
};

struct FinishedAttempt {
    std::string attempt_id;
    std::string bank_fingerprint;       // empty for attempts migrated from v1
    std::int64_t started_at_ms = 0;
    std::int64_t finished_at_ms = 0;
    std::int64_t duration_ms = 0;
    double score = 0;
    double max_score = 0;
    double percent = 0;
    bool passed = false;
    bool review = false;                // a review round (Session::review): not a score of the quiz
    std::vector<AttemptQuestion> questions;
};

struct ProgressRecord {
    std::string bank_id;
    // The attempt to resume; it carries the fingerprint of the bank it was started on.
    std::optional<Session> attempt_in_progress;
    std::vector<FinishedAttempt> finished_attempts;   // by finished_at_ms, then attempt_id
    // Finished attempts pruned from finished_attempts (the oldest, see prune_finished_attempts):
    // their details are gone, but best_percent and question_stats still count them.
    int earlier_attempts = 0;
    std::optional<double> best_percent;
    // By question id. Counted when an attempt finishes; kept for questions that were removed
    // from the bank (they count again if the question comes back).
    std::map<std::string, QuestionStats> question_stats;
};

// Appends the finished session as an attempt, updates best_percent (not for a review round) and
// the question stats, and clears the attempt in progress if it is this one. Each question answered
// is reviewed (schedule.h) at the time it was answered; one left without an answer is not.
// Recording the same attempt twice is a no-op.
void record_finished_attempt(ProgressRecord& record, const Session& session, const Bank& bank,
                             std::int64_t finished_at_ms);

// The question's review card in `record`, if it was made on the question as it is now
// (question_fingerprint): one whose key changed has no schedule until it is answered again.
const ReviewCard* current_review(const ProgressRecord& record, const Question& question);

// A question due for review, with what ranks it against others, of its bank or another.
struct DueQuestion {
    std::string id;
    double recall = 0;          // recall_probability now
    std::int64_t due_ms = 0;
};
// The most forgotten first (lowest recall), then the longest overdue, then by id.
bool more_urgent(const DueQuestion& a, const DueQuestion& b);

// The questions of `bank` due for review at `now_ms`, most urgent first. Only questions with a
// current_review count.
std::vector<DueQuestion> ranked_due(const ProgressRecord& record, const Bank& bank, std::int64_t now_ms);
// The same, their ids only.
std::vector<std::string> due_for_review(const ProgressRecord& record, const Bank& bank, std::int64_t now_ms);

// Every finished attempt ever counted: the kept ones and the pruned ones.
int attempt_count(const ProgressRecord& record);

// Finished attempts at the bank as it is now (same fingerprint): what an exam's maxAttempts
// counts. An attempt at an earlier version of the questions, or at the bank as practice, was at
// another quiz. Only kept attempts count, which is why maxAttempts is at most
// ProgressLimits::kept_finished_attempts.
int attempts_at(const ProgressRecord& record, std::string_view fingerprint);
// The newest of them, or null.
const FinishedAttempt* last_attempt_at(const ProgressRecord& record, std::string_view fingerprint);
// A finished attempt's results, as results() gave them when it finished, with the correct
// answers of the bank as it is now.
Results results_of(const FinishedAttempt& attempt, const Bank& bank);

// Keeps the `keep` most recent finished attempts, counting the others in earlier_attempts.
// Returns how many were pruned. ProgressStore does this on every load, save and import.
int prune_finished_attempts(ProgressRecord& record,
                            std::size_t keep = ProgressLimits{}.kept_finished_attempts);

// Makes a loaded record fit the bank as it is now: drops the attempt in progress when the bank
// content changed (fingerprint) or it refers to questions that no longer exist, and the review
// schedule of each question that changed (question_fingerprint) or is gone. History and stats
// stay. Returns what was done, for the log. `fingerprint`: as session_matches_bank's.
std::vector<std::string> reconcile_with_bank(ProgressRecord& record, const Bank& bank,
                                             std::string_view fingerprint = {});

struct MergeSummary {
    int attempts_added = 0;             // finished attempts `into` did not have
    int attempts_already_present = 0;
    // Older than every attempt a pruned `into` keeps: already counted there, or too old to keep.
    int attempts_too_old = 0;
    bool attempt_in_progress_taken = false;
};

// Union of `other` into `into` (two browser tabs, or an import): finished attempts by attempt id
// (nothing is lost; a duplicate id keeps `into`'s copy), best = max, stats of the added attempts
// are added on top. `into` keeps its attempt in progress; it takes `other`'s only when it has
// none. An attempt in progress that either side has finished is dropped. A record with nothing
// counted yet (no attempt, no statistics) takes `other`'s statistics as they are. Pruned: the
// side that pruned more (larger earlier_attempts) counts every attempt older than the oldest it
// keeps, so the other side's attempts that old are dropped, not added; earlier_attempts becomes
// the larger of the two. Two tabs, or a re-import of an export from here, share their history:
// nothing is counted twice. Two unrelated pruned histories may count fewer than both had.
// Linear in the attempts of both, plus a sort of the added ones.
MergeSummary merge_progress(ProgressRecord& into, const ProgressRecord& other);

// merge_progress of each of `others` into `into`, in order, in O(n log n) for all of them.
MergeSummary merge_all_progress(ProgressRecord& into,
                                const std::vector<const ProgressRecord*>& others);

// Whether merging `other` into `stored` would change what `stored` keeps: a finished attempt it
// lacks (and has not counted by pruning), the end of its attempt in progress (`other` finished
// it), or an attempt in progress where it has none. Nothing else counts: two tabs each in an
// attempt of their own never out-write each other, so a tab that writes back only when this
// holds cannot answer the other tab's write with one of its own for ever.
bool merge_adds_to(const ProgressRecord& stored, const ProgressRecord& other);

// Compact JSON, always the current version.
std::string encode_progress(const ProgressRecord& record);

struct ProgressDecodeResult {
    // Absent when the text is unreadable or from a newer version.
    std::optional<ProgressRecord> record;
    int version = 0;                    // the version found (0 if none)
    bool newer_version = false;         // written by a newer ImQuiz: leave it alone
    bool migrated = false;              // version < progress_format_version
    // Everything wrong, like `finished[2].percent: expected a number, got a string`. With a
    // record, these parts were skipped and the rest was kept (salvaged).
    std::vector<std::string> problems;
    // What a migration changed on purpose (nothing wrong with the input), for the log.
    std::vector<std::string> notes;
};

// Never aborts, whatever the text.
ProgressDecodeResult decode_progress(std::string_view json_text);

struct ImportSummary {
    struct BankImport {
        std::string bank_id;
        MergeSummary merge;             // every record of this bank in the file, merged
        int attempts_pruned = 0;        // kept only as counts (see ProgressLimits)
    };
    std::vector<BankImport> banks;      // in the order the file first names each bank
    // Records or fields that could not be imported: at most ProgressLimits::max_listed_problems,
    // then "… and N more problems"; each at most max_problem_bytes (cut with "…").
    std::vector<std::string> problems;
    bool ok = false;                    // the document was readable (even if parts were not)
};

// Progress of every bank, persisted in a KeyValueStore under `key_prefix`:
//   <prefix>progress.<bank id>                   the current record
//   <prefix>progress.<bank id>.backup-v<N>       copy of a version-N record taken before migrating
//   <prefix>progress.<bank id>.unreadable[-K]    a record that could not be read in full
// Backup and unreadable keys are never overwritten (a free -K suffix is picked).
class ProgressStore {
public:
    explicit ProgressStore(KeyValueStore& store, std::string key_prefix = "imquiz.",
                           ProgressLimits limits = {});

    enum class LoadStatus {
        NoRecord,       // nothing stored: a fresh record
        Loaded,
        Migrated,       // old version: backed up, migrated, saved in the current version
        Salvaged,       // partly unreadable: original moved aside, the readable rest returned
        MovedAside,     // unreadable: moved aside, a fresh record returned
        NewerVersion,   // from a newer ImQuiz: left untouched, a fresh record returned; save()
                        // will refuse to overwrite it
    };

    struct LoadResult {
        ProgressRecord record;
        LoadStatus status = LoadStatus::NoRecord;
        std::vector<std::string> messages;  // what happened and what was wrong, for the log
    };

    // The record comes back pruned (in memory; storage follows on the next save).
    LoadResult load(std::string_view bank_id);

    enum class SaveStatus { Saved, RefusedNewerVersion, StorageFailed };

    // Merges with what is stored now (another tab may have finished attempts meanwhile), so
    // nothing is lost; `record`'s attempt in progress wins. Prunes what it writes.
    SaveStatus save(const ProgressRecord& record);

    // Bank ids with a stored record.
    std::vector<std::string> bank_ids();

    // Deletes a bank's progress: its record and every backup or unreadable copy of it (the
    // learner asked for it gone). True when nothing of it is left in storage.
    bool delete_progress(std::string_view bank_id);
    // Deletes the progress of every bank under this prefix (settings stay). True when nothing
    // of it is left in storage.
    bool delete_all_progress();

    std::string key_for(std::string_view bank_id) const;

    // One JSON document with every record: {"format":"imquiz-progress-export","version":1,
    // "exportedAtMs":..., "records":[...]}.
    std::string export_all(std::int64_t now_ms);

    // Merges every record of an export into the store (see merge_progress): a file over
    // ProgressLimits::max_import_bytes is refused before it is read; the records of each bank
    // are merged in memory, pruned, and each bank is saved once.
    ImportSummary import_all(std::string_view json_text);

private:
    // decode_progress, plus: a record under another bank's key is unreadable here.
    ProgressDecodeResult decode_stored(std::string_view bank_id, const std::string& stored);

    // The keys of a bank's progress: the record, then its backups and unreadable copies.
    std::vector<std::string> keys_of(std::string_view bank_id);

    KeyValueStore& store_;
    std::string prefix_;
    ProgressLimits limits_;
};

} // namespace imquiz
