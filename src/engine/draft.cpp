#include "engine/draft.h"

#include <algorithm>

namespace imquiz {

bool is_selected(const Draft& draft, const std::string& choice_id) {
    return std::find(draft.selected.begin(), draft.selected.end(), choice_id) != draft.selected.end();
}

bool choose(Draft& draft, const Question& question, const std::string& choice_id) {
    auto& selected = draft.selected;
    switch (question.type) {
    case QuestionType::SingleChoice:
        if (!question.find_choice(choice_id) || selected == std::vector<std::string>{choice_id}) return false;
        selected = {choice_id};
        break;
    case QuestionType::TrueFalse:
        if ((choice_id != "true" && choice_id != "false") || selected == std::vector<std::string>{choice_id})
            return false;
        selected = {choice_id};
        break;
    case QuestionType::MultipleChoice: {
        if (!question.find_choice(choice_id)) return false;
        auto it = std::find(selected.begin(), selected.end(), choice_id);
        if (it == selected.end()) selected.push_back(choice_id);
        else selected.erase(it);
        break;
    }
    default: return false;
    }
    draft.refused = InputProblem::None;
    return true;
}

namespace {

// At most max_typed_answer_bytes, never cutting a UTF-8 sequence in two (backs up to the start of
// the character).
std::string cut_typed(std::string_view text) {
    std::size_t length = std::min(text.size(), max_typed_answer_bytes);
    while (length < text.size() && length > 0 && (static_cast<unsigned char>(text[length]) & 0xC0) == 0x80) --length;
    return std::string(text.substr(0, length));
}

}  // namespace

void set_typed(Draft& draft, std::string_view text) {
    draft.typed = cut_typed(text);
    draft.refused = InputProblem::None;
}

void start_order(Draft& draft, const Question& question, const std::vector<std::string>& presented) {
    draft.order.clear();
    if (question.type != QuestionType::Ordering) return;
    for (const std::string& id : presented)
        if (question.find_choice(id)) draft.order.push_back(id);
    // A presented order that lost items (it never should): the rest at the end, as written.
    for (const Choice& item : question.choices)
        if (std::find(draft.order.begin(), draft.order.end(), item.id) == draft.order.end()) draft.order.push_back(item.id);
}

bool move_item(Draft& draft, const Question& question, const std::string& item_id, std::size_t to) {
    if (question.type != QuestionType::Ordering || draft.order.empty()) return false;
    auto from = std::find(draft.order.begin(), draft.order.end(), item_id);
    if (from == draft.order.end()) return false;
    const std::size_t at = static_cast<std::size_t>(from - draft.order.begin());
    to = std::min(to, draft.order.size() - 1);
    if (at == to) return false;
    std::string moved = std::move(*from);
    draft.order.erase(from);
    draft.order.insert(draft.order.begin() + static_cast<std::ptrdiff_t>(to), std::move(moved));
    draft.refused = InputProblem::None;
    return true;
}

std::string matched_answer(const Draft& draft, const std::string& item_id) {
    for (const auto& [item, answer] : draft.pairs)
        if (item == item_id) return answer;
    return {};
}

bool match(Draft& draft, const Question& question, const std::string& item_id, const std::string& answer_id) {
    if (question.type != QuestionType::Matching || !question.find_match_item(item_id)) return false;
    if (!answer_id.empty() && !question.find_choice(answer_id)) return false;
    if (matched_answer(draft, item_id) == answer_id) return false;
    // Kept in the question's item order, whatever order the learner pairs them in.
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const MatchItem& item : question.match_items) {
        std::string answer = item.id == item_id ? answer_id : matched_answer(draft, item.id);
        if (!answer.empty()) pairs.emplace_back(item.id, std::move(answer));
    }
    draft.pairs = std::move(pairs);
    draft.refused = InputProblem::None;
    return true;
}

bool fill_blank(Draft& draft, const Question& question, const std::string& blank_id, std::string_view value) {
    const Blank* blank = question.type == QuestionType::Cloze ? question.find_blank(blank_id) : nullptr;
    if (blank == nullptr) return false;
    if (blank->kind == Blank::Kind::Options && !value.empty() && !blank->find_option(value)) return false;
    std::string text = cut_typed(value);
    if (matched_answer(draft, blank_id) == text) return false;  // "" is also what an unfilled blank reads
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const Blank& each : question.blanks) {
        std::string given = each.id == blank_id ? text : matched_answer(draft, each.id);
        if (!given.empty()) pairs.emplace_back(each.id, std::move(given));
    }
    draft.pairs = std::move(pairs);
    draft.refused = InputProblem::None;
    return true;
}

Response draft_response(const Draft& draft, const Question& question) {
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: return Response::choices(draft.selected);
    case QuestionType::Ordering: return Response::choices(draft.order);
    case QuestionType::Matching:
    case QuestionType::Cloze: return Response::matched(draft.pairs);
    case QuestionType::TrueFalse: return Response::boolean(!draft.selected.empty() && draft.selected.front() == "true");
    default: return Response::typed(draft.typed);
    }
}

bool draft_is_empty(const Draft& draft, const Question& question) {
    // By the rule check() refuses an empty short answer with (white space of any script).
    static const Question short_text = [] {
        Question typed;
        typed.type = QuestionType::ShortText;
        return typed;
    }();
    const auto is_blank_answer = [](const std::string& text) {
        return response_problem(short_text, Response::typed(text)) == InputProblem::EmptyText;
    };
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice:
    case QuestionType::TrueFalse: return draft.selected.empty();
    case QuestionType::Ordering: return draft.order.empty();
    case QuestionType::Matching:
    case QuestionType::Cloze:
        return std::all_of(draft.pairs.begin(), draft.pairs.end(), [&](const auto& pair) { return is_blank_answer(pair.second); });
    default: return is_blank_answer(draft.typed);
    }
}

void restore_response(Draft& draft, const Question& question, const Response& response) {
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: draft.selected = response.choice_ids; break;
    case QuestionType::Ordering: draft.order = response.choice_ids; break;
    case QuestionType::Matching:
    case QuestionType::Cloze: draft.pairs = response.pairs; break;
    case QuestionType::TrueFalse: draft.selected = {response.true_false ? "true" : "false"}; break;
    default: draft.typed = response.text; break;
    }
}

bool can_check(const Draft& draft, const Question& question) {
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice:
    case QuestionType::TrueFalse: return !draft.selected.empty();
    case QuestionType::Ordering: return !draft.order.empty();
    case QuestionType::Matching: return draft.pairs.size() == question.match_items.size();
    case QuestionType::Cloze:
        for (const Blank& blank : question.blanks) {
            const InputProblem problem = blank_input_problem(blank, matched_answer(draft, blank.id));
            if (problem == InputProblem::EmptyText || problem == InputProblem::Incomplete) return false;
        }
        return true;
    default: {
        InputProblem problem = response_problem(question, draft_response(draft, question));
        return problem != InputProblem::EmptyText;
    }
    }
}

} // namespace imquiz
