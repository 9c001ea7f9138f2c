#include "engine/mastery.h"

#include "engine/schedule.h"

#include <algorithm>

namespace imquiz {

namespace {

void count(Mastery& into, const ProgressRecord& record, const Question& question, std::int64_t now_ms) {
    ++into.questions;
    const auto found = record.question_stats.find(question.id);
    if (found == record.question_stats.end()) return;
    const QuestionStats& stats = found->second;
    if (stats.seen > 0) ++into.seen;
    if (stats.correct > 0) ++into.right;
    const ReviewCard* card = current_review(record, question);
    if (card && is_due(*card, now_ms)) ++into.due;
}

}  // namespace

Mastery bank_mastery(const ProgressRecord& record, const Bank& bank, std::int64_t now_ms) {
    Mastery total;
    for (const Question& question : bank.questions) count(total, record, question, now_ms);
    return total;
}

std::vector<Mastery> mastery_by_tag(const ProgressRecord& record, const Bank& bank, std::int64_t now_ms) {
    std::vector<Mastery> tags;
    Mastery untagged;
    for (const Question& question : bank.questions) {
        if (question.tags.empty()) count(untagged, record, question, now_ms);
        for (auto it = question.tags.begin(); it != question.tags.end(); ++it) {
            const std::string& tag = *it;
            if (std::find(question.tags.begin(), it, tag) != it) continue;   // a tag given twice counts once
            auto entry = std::find_if(tags.begin(), tags.end(), [&](const Mastery& m) { return m.tag == tag; });
            if (entry == tags.end()) {
                tags.push_back(Mastery{tag});
                entry = tags.end() - 1;
            }
            count(*entry, record, question, now_ms);
        }
    }
    if (untagged.questions > 0) tags.push_back(untagged);
    return tags;
}

std::optional<std::int64_t> next_review_ms(const ProgressRecord& record, const Bank& bank) {
    std::optional<std::int64_t> next;
    for (const Question& question : bank.questions) {
        const ReviewCard* card = current_review(record, question);
        if (card && (!next || due_ms(*card) < *next)) next = due_ms(*card);
    }
    return next;
}

}  // namespace imquiz
