// What happens to a record: an attempt finishes, the bank changes, two records merge.
#include "engine/progress.h"

#include "engine/progress/format.h"

#include <algorithm>

namespace imquiz {
namespace {

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

} // namespace imquiz
