// Ordering questions: items written in the right order, shown shuffled (never already right),
// validation messages, all-or-nothing and neighbour-pair partial credit, the draft's moves,
// resume through the progress record, the bank writer, and GIFT (which has no such type).
#include "engine/bank_writer.h"
#include "engine/draft.h"
#include "engine/import/import.h"
#include "engine/progress.h"
#include "engine/session.h"

#include "engine_test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using namespace imquiz;
using imquiz::testing::bank_json;
using imquiz::testing::bank_problems;
using imquiz::testing::load_valid_bank;

namespace {

// One step of data-parallel training, in order.
const char* const training_step = R"([{
  "id": "ddp-step", "type": "ordering",
  "prompt": {"en": "Put one data-parallel training step in order.", "ru": "Расположите шаги по порядку."},
  "explanation": "Gradients exist only after the backward pass; the optimizer needs them averaged.",
  "items": [
    {"id": "forward", "text": {"en": "Forward pass", "ru": "Прямой проход"}},
    {"id": "backward", "text": "Backward pass"},
    {"id": "all-reduce", "text": "All-reduce the gradients"},
    {"id": "step", "text": "Optimizer step"}
  ]
}])";

double score_of(const Bank& bank, std::vector<std::string> order) {
    Session session = start_session(bank, 11);
    Feedback feedback = check(session, bank, Response::choices(std::move(order)), 1000);
    REQUIRE(feedback.problem == InputProblem::None);
    return feedback.score;
}

}  // namespace

TEST_CASE("ordering: items load in the right order; validation names the path") {
    const Bank bank = load_valid_bank(bank_json(training_step));
    REQUIRE(bank.questions.size() == 1);
    const Question& question = bank.questions[0];
    CHECK(question.type == QuestionType::Ordering);
    REQUIRE(question.choices.size() == 4);
    CHECK(question.choices[2].id == "all-reduce");
    CHECK(bank.text(question.choices[0].text, "ru") == "Прямой проход");
    CHECK(bank_problems(bank_json(training_step)).empty());

    std::string json = bank_json(training_step);
    const std::string third = R"({"id": "all-reduce", "text": "All-reduce the gradients"})";
    json.replace(json.find(third), third.size(), R"({"id": "forward", "text": "All-reduce", "correct": true})");
    CHECK(bank_problems(json) == std::vector<std::string>{
              "b.json:questions[0].items[2]: error: unknown field \"correct\"",
              "b.json:questions[0].items[2].id: error: duplicate item id \"forward\" (also at questions[0].items[0])"});
    const std::string one = R"([{"id": "q", "type": "ordering", "prompt": "P", "explanation": "E", "items": [{"id": "a", "text": "A"}]}])";
    CHECK(bank_problems(bank_json(one)) == std::vector<std::string>{"b.json:questions[0].items: error: needs at least 2 items, has 1"});
}

TEST_CASE("ordering: all or nothing, or a share per neighbour pair with partialCredit") {
    const Bank strict = load_valid_bank(bank_json(training_step));
    const Bank partial = load_valid_bank(bank_json(training_step, R"({"partialCredit": true})"));
    const std::vector<std::string> right = {"forward", "backward", "all-reduce", "step"};
    // The optimizer step moved first: forward-backward and backward-all-reduce still follow each other.
    const std::vector<std::string> step_first = {"step", "forward", "backward", "all-reduce"};
    const std::vector<std::string> reversed = {"step", "all-reduce", "backward", "forward"};
    CHECK(score_of(strict, right) == 1.0);
    CHECK(score_of(strict, step_first) == 0.0);
    CHECK(score_of(partial, right) == 1.0);
    CHECK(score_of(partial, step_first) == Approx(2.0 / 3.0));
    CHECK(score_of(partial, reversed) == 0.0);
}

TEST_CASE("ordering: every item once; per-place feedback; the right order to show") {
    const Bank bank = load_valid_bank(bank_json(training_step));
    Session session = start_session(bank, 5);
    CHECK(check(session, bank, Response::choices({"forward", "backward", "step"}), 1).problem == InputProblem::Incomplete);
    CHECK(check(session, bank, Response::choices({"forward", "forward", "backward", "step"}), 1).problem == InputProblem::Incomplete);
    CHECK(check(session, bank, Response::choices({"forward", "backward", "all-reduce", "nope"}), 1).problem ==
          InputProblem::UnknownChoice);
    Feedback feedback = check(session, bank, Response::choices({"backward", "forward", "all-reduce", "step"}), 1);
    REQUIRE(feedback.problem == InputProblem::None);
    REQUIRE(feedback.parts.size() == 4);
    CHECK_FALSE(feedback.parts[0].correct);
    CHECK(feedback.parts[2].id == "all-reduce");
    CHECK(feedback.parts[2].correct);
    CHECK(feedback.correct_answer.choice_ids == std::vector<std::string>{"forward", "backward", "all-reduce", "step"});
}

TEST_CASE("ordering: shown shuffled by the seed, the same on resume, never already in order") {
    const Bank bank = load_valid_bank(bank_json(training_step));
    const std::vector<std::string> right = {"forward", "backward", "all-reduce", "step"};
    std::set<std::vector<std::string>> orders;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        const std::vector<std::string> order = start_session(bank, seed).questions[0].choice_order;
        CHECK(order != right);
        CHECK(order == start_session(bank, seed).questions[0].choice_order);
        orders.insert(order);
    }
    CHECK(orders.size() > 10);
}

TEST_CASE("ordering: the draft moves items; resume keeps the answer; the writer keeps the order") {
    const Bank bank = load_valid_bank(bank_json(training_step));
    const Question& question = bank.questions[0];
    Session session = start_session(bank, 9);
    Draft draft;
    start_order(draft, question, session.questions[0].choice_order);
    CHECK(draft.order == session.questions[0].choice_order);
    CHECK(can_check(draft, question));
    // Put each item at its place, as a learner moving them one by one would.
    const std::vector<std::string> right = {"forward", "backward", "all-reduce", "step"};
    for (std::size_t place = 0; place < right.size(); ++place) move_item(draft, question, right[place], place);
    CHECK(draft.order == right);
    CHECK_FALSE(move_item(draft, question, "forward", 0));   // already there
    CHECK_FALSE(move_item(draft, question, "nope", 1));
    CHECK(move_item(draft, question, "forward", 99));        // past the end: last
    CHECK(draft.order.back() == "forward");
    CHECK(move_item(draft, question, "forward", 0));

    REQUIRE(check(session, bank, draft_response(draft, question), 10).correct);
    const Session resumed = imquiz::testing::stored_and_read(session);
    CHECK(session_matches_bank(resumed, bank));
    CHECK(resumed.questions[0].answer->response.choice_ids == right);

    const Bank again = load_valid_bank(bank_to_json(bank));
    CHECK(bank_fingerprint(again) == bank_fingerprint(bank));
    REQUIRE(again.questions[0].choices.size() == 4);
    CHECK(again.questions[0].choices[3].id == "step");
    // Reordering the items is a new key: an attempt in progress is not resumed on it.
    std::string swapped = bank_json(training_step);
    const std::string forward = R"({"id": "forward", "text": {"en": "Forward pass", "ru": "Прямой проход"}},)";
    swapped.erase(swapped.find(forward), forward.size());
    swapped.insert(swapped.find(R"({"id": "step")"), forward);
    CHECK(bank_fingerprint(load_valid_bank(swapped)) != bank_fingerprint(bank));
}

TEST_CASE("ordering: GIFT has no ordering questions; export says it left one out") {
    const Bank bank = load_valid_bank(bank_json(training_step));
    std::vector<Diagnostic> losses;
    const std::string gift = export_gift(bank, "en", &losses);
    CHECK(gift.find("Forward pass") == std::string::npos);
    const auto left_out = std::find_if(losses.begin(), losses.end(), [](const Diagnostic& d) { return d.path == "questions[0]"; });
    REQUIRE(left_out != losses.end());
    CHECK(left_out->message == "GIFT has no ordering questions: the question is left out");
}
