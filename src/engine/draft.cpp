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

void set_typed(Draft& draft, std::string_view text) {
    std::size_t length = std::min(text.size(), max_typed_answer_bytes);
    // Never cut a UTF-8 sequence in two: back up to the start of the character.
    while (length < text.size() && length > 0 && (static_cast<unsigned char>(text[length]) & 0xC0) == 0x80) --length;
    draft.typed.assign(text.substr(0, length));
    draft.refused = InputProblem::None;
}

Response draft_response(const Draft& draft, const Question& question) {
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: return Response::choices(draft.selected);
    case QuestionType::TrueFalse: return Response::boolean(!draft.selected.empty() && draft.selected.front() == "true");
    default: return Response::typed(draft.typed);
    }
}

bool can_check(const Draft& draft, const Question& question) {
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice:
    case QuestionType::TrueFalse: return !draft.selected.empty();
    default: {
        InputProblem problem = response_problem(question, draft_response(draft, question));
        return problem != InputProblem::EmptyText;
    }
    }
}

} // namespace imquiz
