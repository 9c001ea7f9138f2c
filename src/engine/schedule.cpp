#include "engine/schedule.h"

#include <algorithm>
#include <cmath>

namespace imquiz {

namespace {

// FSRS-4.5's default parameters (open-spaced-repetition, fsrs4anki v4.5), fitted on millions of
// Anki reviews; w[0..3] are the first stabilities of the four grades, in days.
constexpr double w[17] = {0.4872, 1.4003, 3.7145, 13.8206, 5.1618, 1.2298, 0.8975, 0.031, 1.6474,
                          0.1367, 1.0461, 2.1072, 0.0793, 0.3246, 1.587,  0.2272, 2.8755};
// The forgetting curve R(t) = (1 + factor * t / S) ^ decay, with R(S) = 0.9.
constexpr double decay = -0.5;
constexpr double factor = 19.0 / 81.0;
constexpr double retention = 0.9;   // what the next review is timed for
constexpr double day_ms = 86'400'000.0;
constexpr double longest_days = 36'500;

double clamp_difficulty(double d) { return std::clamp(d, 1.0, 10.0); }

double first_difficulty(Grade grade) { return clamp_difficulty(w[4] - (static_cast<int>(grade) - 3) * w[5]); }

double next_difficulty(double d, Grade grade) {
    const double moved = d - w[6] * (static_cast<int>(grade) - 3);
    // Mean reversion towards the first difficulty of Good: without it, a card answered Again a
    // few times would stay at 10 for ever.
    return clamp_difficulty(w[7] * w[4] + (1 - w[7]) * moved);
}

double recalled_stability(double d, double s, double r, Grade grade) {
    const double hard = grade == Grade::Hard ? w[15] : 1.0;
    const double easy = grade == Grade::Easy ? w[16] : 1.0;
    return s * (1 + std::exp(w[8]) * (11 - d) * std::pow(s, -w[9]) * (std::exp((1 - r) * w[10]) - 1) * hard * easy);
}

double forgotten_stability(double d, double s, double r) {
    // Never more than before: forgetting does not make a memory stronger.
    return std::min(s, w[11] * std::pow(d, -w[12]) * (std::pow(s + 1, w[13]) - 1) * std::exp((1 - r) * w[14]));
}

double days_between(std::int64_t from_ms, std::int64_t to_ms) {
    return to_ms > from_ms ? static_cast<double>(to_ms - from_ms) / day_ms : 0.0;
}

}  // namespace

Grade grade_of(Outcome outcome, int tries, std::size_t hints_used) {
    switch (outcome) {
    case Outcome::Correct: return tries > 1 || hints_used > 0 ? Grade::Hard : Grade::Good;
    case Outcome::Partial: return Grade::Hard;
    case Outcome::Wrong:
    case Outcome::Skipped: break;
    }
    return Grade::Again;
}

double recall_probability(const ReviewCard& card, std::int64_t now_ms) {
    if (!(card.stability > 0)) return 0;
    return std::pow(1 + factor * days_between(card.last_ms, now_ms) / card.stability, decay);
}

ReviewCard reviewed(const std::optional<ReviewCard>& before, Grade grade, std::int64_t now_ms, std::string question) {
    ReviewCard card;
    if (before && before->stability > 0) {
        card = *before;
        const double r = recall_probability(*before, now_ms);
        card.stability = grade == Grade::Again ? forgotten_stability(before->difficulty, before->stability, r)
                                               : recalled_stability(before->difficulty, before->stability, r, grade);
        card.difficulty = next_difficulty(before->difficulty, grade);
        if (grade == Grade::Again) ++card.lapses;
    } else {
        card.stability = w[static_cast<int>(grade) - 1];
        card.difficulty = first_difficulty(grade);
    }
    // Kept as stored (three decimals, whole seconds): a reload schedules exactly as before it.
    card.stability = std::clamp(std::round(card.stability * 1000) / 1000, 0.001, longest_days);
    card.difficulty = std::round(card.difficulty * 1000) / 1000;
    card.question = std::move(question);
    ++card.reviews;
    card.last_ms = std::max(now_ms, before ? before->last_ms : now_ms) / 1000 * 1000;
    return card;
}

std::int64_t due_ms(const ReviewCard& card) {
    // The interval at which recall falls to `retention`: S itself at 90%.
    const double interval = std::clamp(std::round(card.stability / factor * (std::pow(retention, 1 / decay) - 1)), 1.0, longest_days);
    return card.last_ms + static_cast<std::int64_t>(interval * day_ms);
}

}  // namespace imquiz
