// Cloze questions (bank.h Blank): the prompt's {{id}} blanks, typed, numeric and chosen; their
// validation messages, scoring with and without partialCredit, the attempt's shuffle of a
// blank's choices, the draft, resume through the progress record and the bank writer.
#include "engine/bank_writer.h"
#include "engine/draft.h"
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

// One blank of each kind; the Russian prompt puts them in another order.
const char* const data_parallel = R"([{
  "id": "ddp-step", "type": "cloze",
  "prompt": {"en": "Each of the {{gpus}} GPUs holds {{copy}} of the model, and the gradients are averaged with {{op}}.",
             "ru": "Градиенты усредняются операцией {{op}}, а каждый из {{gpus}} GPU хранит {{copy}} модели."},
  "explanation": "Data parallelism replicates the model and all-reduces the gradients.",
  "blanks": [
    {"id": "gpus", "answer": {"value": 8}, "unit": "GPUs"},
    {"id": "copy", "choices": [
      {"id": "full", "text": {"en": "a full copy", "ru": "полную копию"}, "correct": true},
      {"id": "shard", "text": {"en": "a shard", "ru": "шард"}, "feedback": "Sharding is ZeRO / FSDP."},
      {"id": "none", "text": {"en": "no copy", "ru": "ничего"}}]},
    {"id": "op", "accept": ["all-reduce", "allreduce", {"en": "all reduce", "ru": "олл-редьюс"}],
     "feedback": {"en": "The collective that sums and shares.", "ru": "Сумма на всех рангах."}}
  ]
}])";

const Question& only_question(const Bank& bank) {
    REQUIRE(bank.questions.size() == 1);
    return bank.questions.front();
}

using Pairs = std::vector<std::pair<std::string, std::string>>;

const Pairs all_right = {{"gpus", "8"}, {"copy", "full"}, {"op", "All-Reduce"}};

Feedback checked(const Bank& bank, const Pairs& given) {
    Session session = start_session(bank, 7);
    return check(session, bank, Response::matched(given), 1000);
}

}  // namespace

TEST_CASE("cloze: the prompt's blanks split in every language, and each kind loads") {
    const Bank bank = load_valid_bank(bank_json(data_parallel));
    const Question& question = only_question(bank);
    CHECK(question.type == QuestionType::Cloze);
    REQUIRE(question.blanks.size() == 3);
    CHECK(question.blanks[0].kind == Blank::Kind::Numeric);
    CHECK(bank.text(question.blanks[0].unit, "en") == "GPUs");
    CHECK(question.blanks[1].kind == Blank::Kind::Options);
    CHECK(question.blanks[1].correct_option()->id == "full");
    CHECK(question.blanks[2].kind == Blank::Kind::Typed);
    CHECK(question.blanks[2].accepted_texts.size() == 3);

    const auto ru = split_cloze(bank.text(question.prompt, "ru"));
    REQUIRE(ru.size() == 4);
    CHECK(ru[0].text == "Градиенты усредняются операцией ");
    CHECK(ru[0].blank_id == "op");
    CHECK(ru[1].blank_id == "gpus");
    CHECK(ru[2].blank_id == "copy");
    CHECK(ru[3].blank_id.empty());
    CHECK(ru[3].text == " модели.");
    CHECK(bank_problems(bank_json(data_parallel)).empty());
}

TEST_CASE("cloze: split_cloze keeps braces that are not a blank as text") {
    const auto pieces = split_cloze("a {{ x }} b {{{c}}} {{Up}} {{d-1}}.");
    REQUIRE(pieces.size() == 3);
    CHECK(pieces[0].text == "a {{ x }} b {");
    CHECK(pieces[0].blank_id == "c");
    CHECK(pieces[1].text == "} {{Up}} ");
    CHECK(pieces[1].blank_id == "d-1");
    CHECK(pieces[2].text == ".");
    CHECK(split_cloze("").size() == 1);
    CHECK(split_cloze("{{a}}").front().blank_id == "a");
}

TEST_CASE("cloze: validation names the blank and the path") {
    std::string json = bank_json(data_parallel);
    auto replace = [&](const std::string& from, const std::string& to) {
        const auto at = json.find(from);
        REQUIRE(at != std::string::npos);
        json.replace(at, from.size(), to);
    };
    SECTION("a translation without a blank, and one with a blank twice") {
        replace("каждый из {{gpus}} GPU", "каждый из {{op}} GPU");
        CHECK(bank_problems(json) == std::vector<std::string>{
                  "b.json:questions[0].prompt.ru: error: the blank \"gpus\" is not in this text (write {{gpus}} where it goes)",
                  "b.json:questions[0].prompt.ru: error: the blank \"op\" is in this text 2 times (once only)"});
    }
    SECTION("a blank the question does not have") {
        replace("averaged with {{op}}", "averaged with {{op}} {{ops}}");
        CHECK(bank_problems(json) == std::vector<std::string>{
                  "b.json:questions[0].prompt.en: error: {{ops}} is not one of this question's blanks"});
    }
    SECTION("a blank with two kinds of answer, and one with none") {
        replace(R"({"id": "gpus", "answer": {"value": 8}, "unit": "GPUs"})",
                R"({"id": "gpus", "answer": {"value": 8}, "accept": ["8"]})");
        replace(R"("accept": ["all-reduce", "allreduce", {"en": "all reduce", "ru": "олл-редьюс"}],)", "");
        CHECK(bank_problems(json) == std::vector<std::string>{
                  "b.json:questions[0].blanks[0]: error: a blank has one of \"accept\", \"answer\" and \"choices\", not 2",
                  "b.json:questions[0].blanks[2]: error: a blank needs \"accept\" (typed), \"answer\" (a number) or \"choices\""});
    }
    SECTION("a blank of choices needs exactly one correct") {
        replace(R"("text": {"en": "a shard", "ru": "шард"},)", R"("text": {"en": "a shard", "ru": "шард"}, "correct": true,)");
        CHECK(bank_problems(json) == std::vector<std::string>{
                  "b.json:questions[0].blanks[1].choices: error: a blank needs exactly one correct choice, has 2"});
    }
    SECTION("duplicate blank ids, a unit without a number") {
        replace(R"({"id": "op", "accept")", R"({"id": "copy", "unit": "x", "accept")");
        const auto problems = bank_problems(json);
        INFO(Catch::Detail::stringify(problems));
        CHECK(std::find(problems.begin(), problems.end(),
                        "b.json:questions[0].blanks[2].id: error: duplicate blank id \"copy\" (also at questions[0].blanks[1])") !=
              problems.end());
        CHECK(std::find(problems.begin(), problems.end(),
                        "b.json:questions[0].blanks[2].unit: error: \"unit\" goes with a number's \"answer\"") != problems.end());
    }
    SECTION("no blanks, and another type's fields") {
        replace("\"blanks\"", "\"choices\"");
        CHECK(bank_problems(json) == std::vector<std::string>{
                  "b.json:questions[0]: error: field \"choices\" is not used by cloze questions",
                  "b.json:questions[0]: error: missing required field \"blanks\""});
    }
    SECTION("a misspelt type is suggested") {
        replace("\"type\": \"cloze\"", "\"type\": \"cloz\"");
        const auto problems = bank_problems(json);
        REQUIRE_FALSE(problems.empty());
        CHECK(problems.front() == "b.json:questions[0].type: error: unknown question type \"cloz\" (did you mean \"cloze\"?)");
    }
}

TEST_CASE("cloze: all or nothing, or a share per blank with partialCredit") {
    const Bank strict = load_valid_bank(bank_json(data_parallel));
    const Bank partial = load_valid_bank(bank_json(data_parallel, R"({"partialCredit": true})"));
    const Pairs one_wrong = {{"gpus", "8,0"}, {"copy", "shard"}, {"op", "олл-редьюс"}};
    const Pairs all_wrong = {{"gpus", "7"}, {"copy", "none"}, {"op", "broadcast"}};
    CHECK(checked(strict, all_right).score == 1.0);
    CHECK(checked(strict, all_right).correct);
    CHECK(checked(strict, one_wrong).score == 0.0);
    CHECK(checked(partial, all_right).score == 1.0);
    const Feedback two_of_three = checked(partial, one_wrong);
    CHECK(two_of_three.score == Approx(2.0 / 3.0));
    CHECK_FALSE(two_of_three.correct);
    CHECK(checked(partial, all_wrong).score == 0.0);
}

TEST_CASE("cloze: every blank must be filled; a numeric blank must be a number; feedback per blank") {
    const Bank bank = load_valid_bank(bank_json(data_parallel));
    Session session = start_session(bank, 7);
    auto problem = [&](const Pairs& given) { return check(session, bank, Response::matched(given), 1).problem; };
    CHECK(problem({{"gpus", "8"}, {"copy", "full"}}) == InputProblem::EmptyText);
    CHECK(problem({{"gpus", "8"}, {"op", "x"}}) == InputProblem::Incomplete);
    CHECK(problem({{"gpus", "eight"}, {"copy", "full"}, {"op", "x"}}) == InputProblem::NotANumber);
    CHECK(problem({{"gpus", "8"}, {"copy", "nope"}, {"op", "x"}}) == InputProblem::UnknownChoice);
    CHECK(problem({{"nope", "8"}}) == InputProblem::UnknownChoice);

    // Given in any order, recorded in the question's.
    const Feedback feedback = check(session, bank, Response::matched({{"op", "broadcast"}, {"copy", "shard"}, {"gpus", " 8 "}}), 1);
    REQUIRE(feedback.problem == InputProblem::None);
    REQUIRE(feedback.parts.size() == 3);
    CHECK(feedback.parts[0].id == "gpus");
    CHECK(feedback.parts[0].correct);
    CHECK(feedback.parts[1].given == "shard");
    CHECK_FALSE(feedback.parts[1].correct);
    CHECK(feedback.parts[2].given == "broadcast");
    CHECK(bank.text(feedback.parts[2].feedback, "ru") == "Сумма на всех рангах.");
    CHECK(session.questions[0].answer->response.pairs.front().first == "gpus");
    CHECK(feedback.correct_answer.pairs == Pairs{{"gpus", ""}, {"copy", "full"}, {"op", ""}});
}

TEST_CASE("cloze: a blank's choices are shuffled by the attempt's seed only with shuffleChoices") {
    const Bank as_written = load_valid_bank(bank_json(data_parallel));
    const Blank& blank = only_question(as_written).blanks[1];
    auto order = [&](const Bank& bank, std::uint64_t seed) {
        std::vector<std::string> ids;
        for (const Choice* choice : options_in_order(start_session(bank, seed).questions[0], blank)) ids.push_back(choice->id);
        return ids;
    };
    CHECK(order(as_written, 1) == std::vector<std::string>{"full", "shard", "none"});
    const Bank shuffled = load_valid_bank(bank_json(data_parallel, R"({"shuffleChoices": true})"));
    std::set<std::vector<std::string>> orders;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CHECK(order(shuffled, seed) == order(shuffled, seed));
        CHECK(order(shuffled, seed).size() == 3);
        orders.insert(order(shuffled, seed));
    }
    CHECK(orders.size() > 3);
}

TEST_CASE("cloze: the draft fills and empties blanks; Check waits for every blank; resume keeps the answer") {
    const Bank bank = load_valid_bank(bank_json(data_parallel));
    const Question& question = only_question(bank);
    Draft draft;
    CHECK_FALSE(can_check(draft, question));
    CHECK(fill_blank(draft, question, "op", "all-reduce"));
    CHECK_FALSE(fill_blank(draft, question, "op", "all-reduce"));  // no change
    CHECK_FALSE(fill_blank(draft, question, "copy", "nope"));      // not one of its choices
    CHECK_FALSE(fill_blank(draft, question, "nope", "x"));
    CHECK(fill_blank(draft, question, "copy", "full"));
    CHECK_FALSE(can_check(draft, question));
    CHECK(fill_blank(draft, question, "gpus", "eight"));
    CHECK(can_check(draft, question));  // Check tells why "eight" is refused
    CHECK(draft.pairs.front().first == "gpus");  // the question's order
    CHECK(fill_blank(draft, question, "gpus", ""));
    CHECK(matched_answer(draft, "gpus").empty());
    CHECK_FALSE(can_check(draft, question));
    CHECK(fill_blank(draft, question, "gpus", std::string(3000, '8')));
    CHECK(matched_answer(draft, "gpus").size() == max_typed_answer_bytes);
    CHECK(fill_blank(draft, question, "gpus", "8"));

    Session session = start_session(bank, 3);
    REQUIRE(check(session, bank, draft_response(draft, question), 10).correct);
    const Session resumed = imquiz::testing::stored_and_read(session);
    CHECK(session_matches_bank(resumed, bank));
    CHECK(resumed.questions[0].choice_order == session.questions[0].choice_order);
    CHECK(resumed.questions[0].answer->response == session.questions[0].answer->response);
    CHECK(current_feedback(resumed, bank)->parts.size() == 3);
}

TEST_CASE("cloze: the bank writer writes it back as it was read; the fingerprint follows the key") {
    const Bank bank = load_valid_bank(bank_json(data_parallel));
    const Bank again = load_valid_bank(bank_to_json(bank));
    CHECK(bank_fingerprint(again) == bank_fingerprint(bank));
    CHECK(bank_to_json(again) == bank_to_json(bank));
    REQUIRE(again.questions[0].blanks.size() == 3);
    CHECK(again.questions[0].blanks[0].numeric_answer.value == 8);

    std::string reworded = bank_json(data_parallel);
    reworded.replace(reworded.find("a full copy"), 11, "one whole copy");
    CHECK(bank_fingerprint(load_valid_bank(reworded)) == bank_fingerprint(bank));
    std::string rekeyed = bank_json(data_parallel);
    rekeyed.replace(rekeyed.find("\"value\": 8"), 10, "\"value\": 4");
    CHECK(bank_fingerprint(load_valid_bank(rekeyed)) != bank_fingerprint(bank));
}
