// What the learner has selected or typed on the current question, before Check: the rules for
// editing it and for when it can be checked live here, once, for every rendering (the canvas,
// the accessibility mirror, the page's text field only send edits and read the verdict).
#pragma once

#include "engine/bank.h"
#include "engine/session.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz {

struct Draft {
    std::size_t question_index = static_cast<std::size_t>(-1);
    std::vector<std::string> selected;   // choice ids, or "true" / "false"
    std::string typed;                   // numeric and short-text answers
    std::vector<std::string> order;      // ordering: every item, as the learner has put them
    // matching: (item, answer), item order; cloze: (blank, typed text or choice id), blank order
    std::vector<std::pair<std::string, std::string>> pairs;
    InputProblem refused = InputProblem::None;  // why the last Check was turned down
};

// The longest typed answer kept, in bytes (cut at a character boundary).
constexpr std::size_t max_typed_answer_bytes = 1000;

// Picks (single choice, true/false) or toggles (multiple choice) `choice_id`; ignores ids the
// question does not have. Returns whether the draft changed.
bool choose(Draft& draft, const Question& question, const std::string& choice_id);
void set_typed(Draft& draft, std::string_view text);
// Ordering: the draft starts in the attempt's shuffled order (`presented`, SessionQuestion::choice_order).
void start_order(Draft& draft, const Question& question, const std::vector<std::string>& presented);
// Ordering: moves `item_id` to place `to` (0-based; past the end: last). Returns whether it moved.
bool move_item(Draft& draft, const Question& question, const std::string& item_id, std::size_t to);
// Matching: pairs `item_id` with `answer_id` ("" unpairs it). Returns whether the draft changed.
bool match(Draft& draft, const Question& question, const std::string& item_id, const std::string& answer_id);
// Cloze: sets what fills `blank_id` (typed text, or a choice id; "" empties it). Returns whether
// the draft changed.
bool fill_blank(Draft& draft, const Question& question, const std::string& blank_id, std::string_view value);
// Matching: the answer paired with `item_id`, or "". Cloze: what fills the blank `item_id`.
std::string matched_answer(const Draft& draft, const std::string& item_id);

bool is_selected(const Draft& draft, const std::string& choice_id);
Response draft_response(const Draft& draft, const Question& question);
// Nothing chosen, typed or paired yet (an ordering draft is never empty: it starts in an order).
bool draft_is_empty(const Draft& draft, const Question& question);
// The draft that gives `response` (a try that was not right, brought back after a reload).
void restore_response(Draft& draft, const Question& question, const Response& response);

// Whether Check is worth pressing: something is chosen, or something other than white space is
// typed (the same white-space rule check() uses). A typed answer that is not a number still can
// be checked: check() refuses it, and the learner is told why (Draft::refused).
bool can_check(const Draft& draft, const Question& question);

} // namespace imquiz
