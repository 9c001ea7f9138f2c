// What happens to a record: an attempt finishes, the bank changes, two records merge.
#include "engine/progress.h"

#include "engine/progress/format.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <set>
#include <string_view>
#include <tuple>

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
    attempt.review = session.review;
    for (const QuestionResult& question : outcome.questions)
        attempt.questions.push_back({question.question_id, question.outcome, question.score, question.response,
                                     question.tries > 1 ? question.tries : 0, question.hints_used});
    add_contribution(record.question_stats, attempt);
    // Each answer reviewed at the time it was given, in the order given.
    std::vector<std::pair<std::int64_t, std::size_t>> answered;
    for (std::size_t i = 0; i < session.questions.size(); ++i)
        if (const auto& answer = session.questions[i].answer)
            answered.push_back({answer->answered_at_ms > 0 ? answer->answered_at_ms : finished_at_ms, i});
    std::sort(answered.begin(), answered.end());
    for (const auto& [answered_at_ms, i] : answered) {
        const QuestionResult& result = outcome.questions[i];
        const Question* question = bank.find_question(result.question_id);
        if (!question) continue;
        std::optional<ReviewCard>& review = record.question_stats[result.question_id].review;
        const std::string fingerprint = question_fingerprint(*question);
        if (review && review->question != fingerprint) review.reset();   // another question now
        review = reviewed(review, grade_of(result.outcome, result.tries, result.hints_used), answered_at_ms, fingerprint);
    }
    if (!attempt.review) raise_best(record, attempt.percent);   // a few questions again: not the quiz's score
    insert_in_order(record.finished_attempts, std::move(attempt));
}

const ReviewCard* current_review(const ProgressRecord& record, const Question& question) {
    const auto stats = record.question_stats.find(question.id);
    if (stats == record.question_stats.end() || !stats->second.review) return nullptr;
    const ReviewCard& card = *stats->second.review;
    return card.question == question_fingerprint(question) ? &card : nullptr;
}

bool more_urgent(const DueQuestion& a, const DueQuestion& b) {
    return std::tie(a.recall, a.due_ms, a.id) < std::tie(b.recall, b.due_ms, b.id);
}

std::vector<DueQuestion> ranked_due(const ProgressRecord& record, const Bank& bank, std::int64_t now_ms) {
    std::vector<DueQuestion> due;
    for (const Question& question : bank.questions) {
        const ReviewCard* card = current_review(record, question);
        if (!card || !is_due(*card, now_ms)) continue;
        due.push_back({question.id, recall_probability(*card, now_ms), due_ms(*card)});
    }
    std::sort(due.begin(), due.end(), more_urgent);
    return due;
}

std::vector<std::string> due_for_review(const ProgressRecord& record, const Bank& bank, std::int64_t now_ms) {
    std::vector<std::string> ids;
    for (DueQuestion& entry : ranked_due(record, bank, now_ms)) ids.push_back(std::move(entry.id));
    return ids;
}

int attempt_count(const ProgressRecord& record) {
    return record.earlier_attempts + static_cast<int>(record.finished_attempts.size());
}

int attempts_at(const ProgressRecord& record, std::string_view fingerprint) {
    return static_cast<int>(std::count_if(record.finished_attempts.begin(), record.finished_attempts.end(),
                                          [&](const FinishedAttempt& a) { return a.bank_fingerprint == fingerprint; }));
}

const FinishedAttempt* last_attempt_at(const ProgressRecord& record, std::string_view fingerprint) {
    // finished_attempts is in the order they finished: the newest is the last that matches.
    for (auto it = record.finished_attempts.rbegin(); it != record.finished_attempts.rend(); ++it)
        if (it->bank_fingerprint == fingerprint) return &*it;
    return nullptr;
}

Results results_of(const FinishedAttempt& attempt, const Bank& bank) {
    Results result;
    result.attempt_id = attempt.attempt_id;
    result.score = attempt.score;
    result.max_score = attempt.max_score;
    result.percent = attempt.percent;
    result.pass_percent = bank.settings.pass_percent;
    result.passed = attempt.passed;
    result.started_at_ms = attempt.started_at_ms;
    result.duration_ms = attempt.duration_ms;
    result.review = attempt.review;
    for (const AttemptQuestion& question : attempt.questions) {
        QuestionResult row;
        row.question_id = question.question_id;
        row.outcome = question.outcome;
        row.score = question.score;
        row.response = question.response;
        row.tries = question.tries > 0 ? question.tries : question.response ? 1 : 0;
        row.hints_used = question.hints_used;
        if (const Question* now_there = bank.find_question(question.question_id))
            row.correct_answer = correct_answer(*now_there);
        result.questions.push_back(std::move(row));
    }
    return result;
}

int prune_finished_attempts(ProgressRecord& record, std::size_t keep) {
    std::vector<FinishedAttempt>& attempts = record.finished_attempts;
    if (attempts.size() <= keep)
        return 0;
    const std::size_t pruned = attempts.size() - keep;
    attempts.erase(attempts.begin(), attempts.begin() + static_cast<std::ptrdiff_t>(pruned));
    const long long count = static_cast<long long>(record.earlier_attempts) +
                            static_cast<long long>(pruned);
    record.earlier_attempts =
        static_cast<int>(std::min<long long>(count, std::numeric_limits<int>::max()));
    return static_cast<int>(pruned);
}

std::vector<std::string> reconcile_with_bank(ProgressRecord& record, const Bank& bank, std::string_view fingerprint) {
    std::vector<std::string> notes;
    if (record.attempt_in_progress && !session_matches_bank(*record.attempt_in_progress, bank, fingerprint)) {
        record.attempt_in_progress.reset();
        notes.push_back("the attempt in progress was started on a different version of bank \"" +
                        bank.id + "\" and cannot be resumed; it was discarded (finished attempts "
                        "and question statistics are kept)");
    }
    int dropped = 0;
    for (auto& [question_id, stats] : record.question_stats) {
        if (!stats.review) continue;
        const Question* question = bank.find_question(question_id);
        if (question && stats.review->question == question_fingerprint(*question)) continue;
        stats.review.reset();
        ++dropped;
    }
    if (dropped > 0)
        notes.push_back(std::to_string(dropped) + " question(s) of bank \"" + bank.id +
                        "\" changed or were removed since they were last answered: they leave the review schedule");
    return notes;
}

MergeSummary merge_progress(ProgressRecord& into, const ProgressRecord& other) {
    return merge_all_progress(into, {&other});
}

bool merge_adds_to(const ProgressRecord& stored, const ProgressRecord& other) {
    ProgressRecord merged = stored;
    const MergeSummary summary = merge_progress(merged, other);
    const bool in_progress_ended = stored.attempt_in_progress && !merged.attempt_in_progress;
    return summary.attempts_added > 0 || summary.attempt_in_progress_taken || in_progress_ended;
}

MergeSummary merge_all_progress(ProgressRecord& into,
                                const std::vector<const ProgressRecord*>& others) {
    MergeSummary summary;
    std::vector<FinishedAttempt>& kept = into.finished_attempts;
    // One set of ids and one merge of sorted lists for all of `others`: an import can bring
    // 20,000 records of one bank, and rebuilding either per record would be quadratic.
    std::set<std::string> ids;
    for (const FinishedAttempt& attempt : kept)
        ids.insert(attempt.attempt_id);
    std::vector<FinishedAttempt> added;
    for (const ProgressRecord* other_record : others) {
        const ProgressRecord& other = *other_record;
        if (into.bank_id.empty())
            into.bank_id = other.bank_id;
        if (into.bank_id != other.bank_id)
            continue;   // different banks: nothing in common to merge
        // The side that pruned more counts everything older than the oldest attempt it keeps
        // (the histories of two tabs, or of a file exported from here, share their beginning):
        // attempts of the other side that old are in that count already.
        if (other.earlier_attempts > into.earlier_attempts && !other.finished_attempts.empty()) {
            const FinishedAttempt& others_oldest = other.finished_attempts.front();
            const auto older = [&](const FinishedAttempt& attempt) {
                if (!finished_earlier(attempt, others_oldest))
                    return false;
                ids.erase(attempt.attempt_id);
                return true;
            };
            kept.erase(std::remove_if(kept.begin(), kept.end(), older), kept.end());
            added.erase(std::remove_if(added.begin(), added.end(), older), added.end());
        }
        const bool into_pruned_more = into.earlier_attempts > 0 &&
                                      into.earlier_attempts >= other.earlier_attempts &&
                                      !kept.empty();
        const FinishedAttempt* oldest_kept = into_pruned_more ? &kept.front() : nullptr;
        // A record with nothing counted yet takes the other's statistics as they are: they count
        // attempts the other side pruned too, which adding up its kept attempts would miss.
        const bool nothing_counted = kept.empty() && added.empty() &&
                                     into.earlier_attempts == 0 && into.question_stats.empty();
        if (nothing_counted)
            into.question_stats = other.question_stats;
        for (const FinishedAttempt& attempt : other.finished_attempts) {
            if (ids.count(attempt.attempt_id) != 0) {
                ++summary.attempts_already_present;
                continue;
            }
            if (oldest_kept != nullptr && finished_earlier(attempt, *oldest_kept)) {
                ++summary.attempts_too_old;
                continue;
            }
            if (!nothing_counted)
                add_contribution(into.question_stats, attempt);
            ids.insert(attempt.attempt_id);
            added.push_back(attempt);
            ++summary.attempts_added;
        }
        into.earlier_attempts = std::max(into.earlier_attempts, other.earlier_attempts);
        for (const auto& [question_id, stats] : other.question_stats) {
            QuestionStats& entry = into.question_stats[question_id];
            entry.last_seen_ms = std::max(entry.last_seen_ms, stats.last_seen_ms);
            // The later review has seen more: two tabs that answered the same question keep the
            // schedule of the last answer (the earlier one is in the history, not in the schedule).
            if (stats.review && (!entry.review || entry.review->last_ms < stats.review->last_ms))
                entry.review = stats.review;
        }
        raise_best(into, other.best_percent);
        if (into.attempt_in_progress && ids.count(into.attempt_in_progress->attempt_id) != 0)
            into.attempt_in_progress.reset();
        if (!into.attempt_in_progress && other.attempt_in_progress &&
            ids.count(other.attempt_in_progress->attempt_id) == 0) {
            into.attempt_in_progress = other.attempt_in_progress;
            summary.attempt_in_progress_taken = true;
        }
    }
    if (!added.empty()) {
        // finished_earlier is a total order here (no two kept attempts share an id), so one sort
        // gives what merging two sorted lists would, without std::inplace_merge's 1.5 KB of wasm.
        kept.insert(kept.end(), std::make_move_iterator(added.begin()),
                    std::make_move_iterator(added.end()));
        std::sort(kept.begin(), kept.end(), finished_earlier);
    }
    return summary;
}

} // namespace imquiz
