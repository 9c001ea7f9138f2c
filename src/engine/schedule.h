// When to ask a question again: a review schedule per question, by FSRS-4.5 (the Free Spaced
// Repetition Scheduler, Anki's scheduler since 23.10) with its published default parameters.
// Each question a learner answered has a memory model of two numbers: stability (the days until
// the chance of recalling it falls to 90%) and difficulty (1 to 10). Each answer updates both and
// sets the next review for when that chance is expected to reach 90% again. Pure arithmetic on
// the times it is given: the same answers at the same times give the same schedule everywhere.
#pragma once

#include "engine/bank.h"
#include "engine/session.h"

#include <cstdint>
#include <optional>
#include <string>

namespace imquiz {

// FSRS's four grades. A quiz answer gives three of them (grade_of); Easy is not used: the time a
// quiz answer takes mixes reading the question with recalling the answer, so it says little.
enum class Grade { Again = 1, Hard = 2, Good = 3, Easy = 4 };

// Wrong or skipped: Again. Partly right, or right only after a hint or another try: Hard.
// Right at once: Good.
Grade grade_of(Outcome outcome, int tries, std::size_t hints_used);

// Stored for every question answered (progress.h), so it is small: the two numbers are kept to
// three decimals, the time to the second, and the due time is computed (due_ms).
struct ReviewCard {
    std::string question;           // question_fingerprint of the question when last reviewed
    double stability = 0;           // days until recall is expected to fall to 90% (0.001 .. 36500)
    double difficulty = 0;          // 1 (easy) .. 10 (hard)
    std::int64_t last_ms = 0;       // when it was last answered, a whole second
    int reviews = 0;                // answers counted
    int lapses = 0;                 // answers graded Again after the first
};

// When to ask it again: when recall is expected to have fallen to 90%, at least a day and at most
// 100 years after the last answer.
std::int64_t due_ms(const ReviewCard& card);

// The chance of recalling the question at `now_ms` (1 right after a review, 0.9 when it falls
// due). A clock set back before the last review counts as no time passed.
double recall_probability(const ReviewCard& card, std::int64_t now_ms);

// The card after an answer graded `grade` at `now_ms` (`before` absent: its first answer), for
// the question whose question_fingerprint is `question`.
ReviewCard reviewed(const std::optional<ReviewCard>& before, Grade grade, std::int64_t now_ms,
                    std::string question);

inline bool is_due(const ReviewCard& card, std::int64_t now_ms) { return due_ms(card) <= now_ms; }

}  // namespace imquiz
