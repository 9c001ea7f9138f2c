// How far a learner has come with a bank: the counts behind the results screen's bars per tag and
// the catalog's indicator per bank. Computed from the progress record and the bank as it is now,
// so a question that was removed counts nowhere and one that was added counts as not seen yet.
#pragma once

#include "engine/bank.h"
#include "engine/progress.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace imquiz {

struct Mastery {
    std::string tag;        // mastery_by_tag: the tag; "" for the questions with none (and bank_mastery)
    int questions = 0;      // questions of the bank (with the tag)
    int seen = 0;           // ... in at least one finished attempt
    int right = 0;          // ... answered fully right at least once
    int due = 0;            // ... due for review now (due_for_review)
};

// The whole bank.
Mastery bank_mastery(const ProgressRecord& record, const Bank& bank, std::int64_t now_ms);

// One entry per tag, in the order the tags first appear in the bank, then one with tag "" for the
// questions that have no tag (if any). A question with two tags counts under both. A bank without
// tags gives the one entry "".
std::vector<Mastery> mastery_by_tag(const ProgressRecord& record, const Bank& bank, std::int64_t now_ms);

// When the next of the bank's questions falls due for review (the earliest due time of the
// questions reviewed as they are now), or none when no question has a schedule.
std::optional<std::int64_t> next_review_ms(const ProgressRecord& record, const Bank& bank);

}  // namespace imquiz
