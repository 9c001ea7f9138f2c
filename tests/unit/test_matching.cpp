// Matching questions (bank.h MatchItem): the format, its validation messages, scoring with and
// without partialCredit, the attempt's shuffle of the answers, the draft, resume through the
// progress record, the bank writer and GIFT's "=item -> answer" both ways.
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

// Three collectives and what each does, with one answer no item goes with.
const char* const collectives = R"([{
  "id": "collectives", "type": "matching",
  "prompt": {"en": "Match each collective with what it does.", "ru": "Сопоставьте операции и их действие."},
  "explanation": "All-reduce is reduce-scatter followed by all-gather.",
  "items": [
    {"id": "all-reduce", "text": "All-reduce", "match": "sum-everywhere",
     "feedback": {"en": "Every rank ends with the sum.", "ru": "У каждого ранга сумма."}},
    {"id": "all-gather", "text": "All-gather", "match": "concat-everywhere"},
    {"id": "reduce-scatter", "text": "Reduce-scatter", "match": "sum-shards"}
  ],
  "answers": [
    {"id": "sum-everywhere", "text": {"en": "Sum on every rank", "ru": "Сумма на каждом ранге"}},
    {"id": "concat-everywhere", "text": "Concatenation on every rank"},
    {"id": "sum-shards", "text": "Each rank gets one shard of the sum"},
    {"id": "copy-from-one", "text": "One rank's data copied to all"}
  ]
}])";

const Question& only_question(const Bank& bank) {
    REQUIRE(bank.questions.size() == 1);
    return bank.questions.front();
}

Response pairs(std::vector<std::pair<std::string, std::string>> given) { return Response::matched(std::move(given)); }

const std::vector<std::pair<std::string, std::string>> all_right = {
    {"all-reduce", "sum-everywhere"}, {"all-gather", "concat-everywhere"}, {"reduce-scatter", "sum-shards"}};

double score_of(const Bank& bank, const Response& response) {
    Session session = start_session(bank, 7);
    Feedback feedback = check(session, bank, response, 1000);
    REQUIRE(feedback.problem == InputProblem::None);
    return feedback.score;
}

}  // namespace

TEST_CASE("matching: items, answers (distractors too) and feedback load") {
    const Bank bank = load_valid_bank(bank_json(collectives));
    const Question& question = only_question(bank);
    CHECK(question.type == QuestionType::Matching);
    REQUIRE(question.match_items.size() == 3);
    REQUIRE(question.choices.size() == 4);
    CHECK(question.match_items[0].answer_id == "sum-everywhere");
    CHECK(bank.text(question.match_items[0].feedback, "ru") == "У каждого ранга сумма.");
    CHECK(bank.text(question.choices[0].text, "ru") == "Сумма на каждом ранге");
    CHECK(bank_problems(bank_json(collectives)).empty());
}

TEST_CASE("matching: validation names the field and the path") {
    std::string json = bank_json(collectives);
    SECTION("an item's match that is not an answer") {
        const std::string right = "\"match\": \"sum-shards\"";
        json.replace(json.find(right), right.size(), "\"match\": \"sum-shard\"");
        CHECK(bank_problems(json) == std::vector<std::string>{
                  "b.json:questions[0].items[2].match: error: \"sum-shard\" is not one of this question's answers"});
    }
    SECTION("no answers") {
        json.replace(json.find("\"answers\""), 9, "\"answerz\"");
        const auto problems = bank_problems(json);
        CHECK(std::find(problems.begin(), problems.end(),
                        "b.json:questions[0]: error: missing required field \"answers\"") != problems.end());
    }
    SECTION("a duplicate item id and a missing match") {
        const std::string second = "\"id\": \"all-gather\", \"text\": \"All-gather\", \"match\": \"concat-everywhere\"";
        json.replace(json.find(second), second.size(), "\"id\": \"all-reduce\", \"text\": \"All-gather\"");
        CHECK(bank_problems(json) == std::vector<std::string>{
                  "b.json:questions[0].items[1].id: error: duplicate item id \"all-reduce\" (also at questions[0].items[0])",
                  "b.json:questions[0].items[1]: error: missing required field \"match\""});
    }
    SECTION("a single item") {
        const std::string one = R"([{"id": "q", "type": "matching", "prompt": "P", "explanation": "E",
          "items": [{"id": "a", "text": "A", "match": "x"}], "answers": [{"id": "x", "text": "X"}, {"id": "y", "text": "Y"}]}])";
        CHECK(bank_problems(bank_json(one)) == std::vector<std::string>{
                  "b.json:questions[0].items: error: needs at least 2 items, has 1"});
    }
    SECTION("choices are not a matching question's") {
        json.replace(json.find("\"answers\""), 9, "\"choices\"");
        const auto problems = bank_problems(json);
        INFO(Catch::Detail::stringify(problems));
        CHECK(problems == std::vector<std::string>{"b.json:questions[0]: error: field \"choices\" is not used by matching questions",
                                                   "b.json:questions[0]: error: missing required field \"answers\""});
    }
}

TEST_CASE("matching: all or nothing, or a share per item with partialCredit") {
    const Bank strict = load_valid_bank(bank_json(collectives));
    const Bank partial = load_valid_bank(bank_json(collectives, R"({"partialCredit": true})"));
    const auto one_wrong = std::vector<std::pair<std::string, std::string>>{
        {"all-reduce", "sum-everywhere"}, {"all-gather", "copy-from-one"}, {"reduce-scatter", "sum-shards"}};
    const auto all_wrong = std::vector<std::pair<std::string, std::string>>{
        {"all-reduce", "copy-from-one"}, {"all-gather", "sum-shards"}, {"reduce-scatter", "sum-everywhere"}};
    CHECK(score_of(strict, pairs(all_right)) == 1.0);
    CHECK(score_of(strict, pairs(one_wrong)) == 0.0);
    CHECK(score_of(partial, pairs(all_right)) == 1.0);
    CHECK(score_of(partial, pairs(one_wrong)) == Approx(2.0 / 3.0));
    CHECK(score_of(partial, pairs(all_wrong)) == 0.0);
}

TEST_CASE("matching: every item needs an answer; unknown ids are refused; feedback per item") {
    const Bank bank = load_valid_bank(bank_json(collectives));
    Session session = start_session(bank, 7);
    CHECK(check(session, bank, pairs({{"all-reduce", "sum-everywhere"}}), 1).problem == InputProblem::Incomplete);
    CHECK(check(session, bank, pairs({{"all-reduce", "nope"}}), 1).problem == InputProblem::UnknownChoice);
    CHECK(check(session, bank, pairs({{"nope", "sum-everywhere"}}), 1).problem == InputProblem::UnknownChoice);
    // Given in any order, recorded in the question's.
    std::vector<std::pair<std::string, std::string>> reversed(all_right.rbegin(), all_right.rend());
    reversed[0].second = "copy-from-one";  // reduce-scatter, wrong
    Feedback feedback = check(session, bank, pairs(reversed), 1);
    REQUIRE(feedback.problem == InputProblem::None);
    CHECK_FALSE(feedback.correct);
    REQUIRE(feedback.parts.size() == 3);
    CHECK(feedback.parts[0].id == "all-reduce");
    CHECK(feedback.parts[0].correct);
    CHECK(bank.text(feedback.parts[0].feedback, "en") == "Every rank ends with the sum.");
    CHECK(feedback.parts[2].id == "reduce-scatter");
    CHECK(feedback.parts[2].given == "copy-from-one");
    CHECK_FALSE(feedback.parts[2].correct);
    CHECK(session.questions[0].answer->response.pairs.front().first == "all-reduce");
    CHECK(feedback.correct_answer.pairs == all_right);
}

TEST_CASE("matching: the answers are shuffled by the attempt's seed, the same on every resume") {
    const Bank bank = load_valid_bank(bank_json(collectives));  // no shuffleChoices: shuffled all the same
    std::set<std::vector<std::string>> orders;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const Session session = start_session(bank, seed);
        CHECK(session.questions[0].choice_order == start_session(bank, seed).questions[0].choice_order);
        orders.insert(session.questions[0].choice_order);
    }
    CHECK(orders.size() > 5);
}

TEST_CASE("matching: the draft pairs and unpairs; Check waits for every item; resume keeps the answer") {
    const Bank bank = load_valid_bank(bank_json(collectives));
    const Question& question = only_question(bank);
    Draft draft;
    CHECK_FALSE(can_check(draft, question));
    CHECK(match(draft, question, "reduce-scatter", "sum-shards"));
    CHECK_FALSE(match(draft, question, "reduce-scatter", "sum-shards"));  // no change
    CHECK_FALSE(match(draft, question, "reduce-scatter", "nope"));
    CHECK(match(draft, question, "all-reduce", "sum-everywhere"));
    CHECK_FALSE(can_check(draft, question));
    CHECK(match(draft, question, "all-gather", "copy-from-one"));
    CHECK(can_check(draft, question));
    CHECK(draft.pairs.front().first == "all-reduce");  // the question's order
    CHECK(match(draft, question, "all-gather", ""));
    CHECK(matched_answer(draft, "all-gather").empty());
    CHECK_FALSE(can_check(draft, question));
    CHECK(match(draft, question, "all-gather", "concat-everywhere"));

    Session session = start_session(bank, 3);
    REQUIRE(check(session, bank, draft_response(draft, question), 10).correct);
    // Through the progress record and back.
    ProgressRecord record;
    record.bank_id = bank.id;
    record.attempt_in_progress = session;
    const std::string stored = encode_progress(record);
    const ProgressDecodeResult decoded = decode_progress(stored);
    REQUIRE(decoded.record);
    REQUIRE(decoded.record->attempt_in_progress);
    const Session& resumed = *decoded.record->attempt_in_progress;
    CHECK(session_matches_bank(resumed, bank));
    CHECK(resumed.questions[0].answer->response == session.questions[0].answer->response);
    CHECK(current_feedback(resumed, bank)->parts.size() == 3);
}

TEST_CASE("matching: the bank writer and GIFT write it back as it was read") {
    const Bank bank = load_valid_bank(bank_json(collectives));
    const Bank again = load_valid_bank(bank_to_json(bank));
    CHECK(bank_fingerprint(again) == bank_fingerprint(bank));
    REQUIRE(again.questions[0].match_items.size() == 3);
    CHECK(again.questions[0].match_items[2].answer_id == "sum-shards");

    const char* const gift = "::Collectives:: Match each collective with what it does. {\n"
                             "=All-reduce -> Sum on every rank\n"
                             "=All-gather -> Concatenation on every rank\n"
                             "=Reduce-scatter -> Each rank gets one shard of the sum\n"
                             "= -> One rank's data copied to all\n"
                             "####All-reduce is reduce-scatter followed by all-gather.\n"
                             "}\n";
    ImportResult imported = import_gift(gift, "c.gift", ImportOptions{});
    INFO(Catch::Detail::stringify(testing::formatted(imported.diagnostics)));
    CHECK(testing::formatted(imported.diagnostics).empty());
    REQUIRE(imported.bank);
    const Question& question = imported.bank->questions.at(0);
    CHECK(question.type == QuestionType::Matching);
    REQUIRE(question.match_items.size() == 3);
    REQUIRE(question.choices.size() == 4);
    CHECK(question.match_items[1].id == "all-gather");
    CHECK(question.find_choice(question.match_items[1].answer_id) != nullptr);
    CHECK(imported.bank->text(question.find_choice(question.match_items[1].answer_id)->text, "en") ==
          "Concatenation on every rank");

    std::vector<Diagnostic> losses;
    const std::string exported = export_gift(*imported.bank, "en", &losses);
    CHECK(losses.empty());
    ImportResult round = import_gift(exported, "again.gift", ImportOptions{});
    REQUIRE(round.bank);
    CHECK(bank_fingerprint(*round.bank) == bank_fingerprint(*imported.bank));
    round.bank->id = imported.bank->id;  // from the file name, as the title is
    round.bank->title = imported.bank->title;
    CHECK(bank_to_json(*round.bank) == bank_to_json(*imported.bank));
}
