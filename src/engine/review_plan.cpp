#include "engine/review_plan.h"

#include <algorithm>

namespace imquiz {

std::vector<ReviewLeg> plan_review(const std::vector<std::vector<DueQuestion>>& due_by_bank, std::size_t limit) {
    struct Pick {
        std::size_t bank;
        const DueQuestion* question;
    };
    std::vector<Pick> all;
    for (std::size_t b = 0; b < due_by_bank.size(); ++b)
        for (const DueQuestion& question : due_by_bank[b]) all.push_back({b, &question});
    // Stable: equal urgency keeps the banks' order, and each bank's own.
    std::stable_sort(all.begin(), all.end(), [](const Pick& a, const Pick& b) { return more_urgent(*a.question, *b.question); });
    if (all.size() > limit) all.resize(limit);

    std::vector<ReviewLeg> legs;
    for (const Pick& pick : all) {
        auto leg = std::find_if(legs.begin(), legs.end(), [&](const ReviewLeg& l) { return l.bank == pick.bank; });
        if (leg == legs.end()) leg = legs.insert(legs.end(), ReviewLeg{pick.bank, {}});
        leg->question_ids.push_back(pick.question->id);
    }
    return legs;
}

}  // namespace imquiz
