// A review round across banks (the catalog's "Review all"): which due questions it takes, and in
// which order it plays them. Pure: the app gathers each bank's ranked_due (progress.h) and plays
// the legs one after another, each as a review round of its own bank.
#pragma once

#include "engine/progress.h"

#include <cstddef>
#include <string>
#include <vector>

namespace imquiz {

// One bank's part of the round: its questions, most urgent first.
struct ReviewLeg {
    std::size_t bank = 0;                   // index into the list the plan was made from
    std::vector<std::string> question_ids;
};

// The `limit` most urgent questions of all banks (more_urgent; a tie goes to the earlier bank),
// grouped by bank so that each bank's questions are played together, in its own language and
// settings, and the banks ordered by their most urgent question. A bank with nothing picked has
// no leg.
std::vector<ReviewLeg> plan_review(const std::vector<std::vector<DueQuestion>>& due_by_bank, std::size_t limit);

}  // namespace imquiz
