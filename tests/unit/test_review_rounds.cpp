// Review rounds (Review mistakes, Review N due) are practice on some of a quiz's questions: they
// count towards each question's statistics and schedule, but not as a score of the quiz: not the
// best score, no bar in the chart of scores, no verdict on the results or to the host page (whose
// LMS adapter keeps the grade of the last whole attempt). Kept as rounds through a reload.
#include "engine/progress.h"
#include "engine/session.h"

#include "app_test_support.h"
#include "engine_test_support.h"

#include <catch2/catch.hpp>

using namespace imquiz;
using imquiz::testing::bank_json;
using imquiz::testing::day;
using imquiz::testing::five_questions;
using imquiz::testing::load_valid_bank;
using imquiz::testing::start;

namespace {

namespace memory = imquiz::platform::memory;
using imquiz::testing::only_card;
using imquiz::testing::TestApp;
using imquiz::testing::Url;

// Plays the questions on screen to the results, the first `right` of them answered right.
void play_to_results(TestApp& app, int right) {
    memory::world().now_ms += 60'000;   // a minute later: the attempts keep their order
    imquiz::testing::answer_to_results(app, right);
}

// The statements sent to the host page since `from`.
std::vector<nlohmann::json> statements_since(std::size_t from) {
    std::vector<nlohmann::json> out;
    const auto& messages = memory::world().host_messages;
    for (std::size_t i = from; i < messages.size(); ++i) {
        nlohmann::json message = nlohmann::json::parse(messages[i]);
        if (message["type"] == "imquiz:xapi") out.push_back(message["statement"]);
    }
    return out;
}

std::string verb_of(const nlohmann::json& statement) {
    const std::string id = statement["verb"]["id"];
    return id.substr(id.rfind('/') + 1);
}

const nlohmann::json* round_extension(const nlohmann::json& statement) {
    const auto context = statement.find("context");
    if (context == statement.end()) return nullptr;
    const auto extensions = context->find("extensions");
    if (extensions == context->end()) return nullptr;
    const auto round = extensions->find("urn:imquiz:xapi:round");
    return round == extensions->end() ? nullptr : &*round;
}

}  // namespace

TEST_CASE("review round: Review mistakes is practice: no best score, no bar, its own heading and no verdict") {
    TestApp app(Url{}, false);
    nlohmann::json bank = nlohmann::json::parse(bank_json(five_questions, R"({"shuffleQuestions": false, "passPercent": 60})"));
    bank["feedbackRanges"] = nlohmann::json::parse(R"([{"from": 0, "to": 100, "text": {"en": "Thanks for playing.", "ru": "Спасибо."}}])");
    imquiz::testing::boot_with_quiz(app, bank.dump(), "en");
    play_to_results(app, 2);   // 40%: not passed
    CHECK(app.screen().results.heading == "Results");
    CHECK(app.screen().results.verdict == "Not passed");
    CHECK(app.screen().results.feedback == "Thanks for playing.");

    app.send({{"type", "review"}});   // the three missed, all right now
    REQUIRE(app.screen().question.total == 3);
    play_to_results(app, 3);
    app::ResultsModel results = app.screen().results;
    CHECK(results.percent == Approx(100));
    CHECK(results.heading == "Review round");
    CHECK(results.verdict == "Practice: not counted as a score");
    CHECK(results.feedback.empty());   // the bank's words are about a score of the quiz
    CHECK(results.scores.bars.empty());   // one attempt at the quiz: no trend yet
    REQUIRE(results.past_attempts.size() == 2);
    CHECK_THAT(results.past_attempts[0], Catch::Matchers::EndsWith("Review round"));
    CHECK_THAT(results.past_attempts[1], !Catch::Matchers::EndsWith("Review round"));
    // The card's best score is the whole attempt's, not the round's 100%; what the round taught
    // counts: every question right at least once.
    app.send({{"type", "catalog"}});
    app::CardModel card = only_card(app.screen());
    REQUIRE(card.best_percent);
    CHECK(*card.best_percent == Approx(40));
    REQUIRE(card.progress);
    CHECK(card.progress->right == 5);

    // A second whole attempt: two bars, numbered among every attempt (the round was the 2nd).
    app.send({{"type", "open"}, {"quiz", "sample"}});
    app.send({{"type", "retry"}});
    play_to_results(app, 4);
    results = app.screen().results;
    CHECK(results.heading == "Results");
    REQUIRE(results.scores.bars.size() == 2);
    CHECK(results.scores.bars[0].label == "1");
    CHECK(results.scores.bars[1].label == "3");
    CHECK(results.scores.bars[1].value == "80%");
    CHECK(results.scores.bars[1].current);
    app.send({{"type", "catalog"}});
    CHECK(*only_card(app.screen()).best_percent == Approx(80));
}

TEST_CASE("review round: the host page is told it is one, and gets no verdict on the quiz from it") {
    TestApp app(Url{}, false);
    imquiz::testing::boot_with_quiz(app, bank_json(five_questions, R"({"shuffleQuestions": false})"), "en");
    play_to_results(app, 3);
    std::vector<nlohmann::json> whole = statements_since(0);
    REQUIRE(whole.size() == 8);   // attempted, five answered, completed, failed
    for (const nlohmann::json& statement : whole) CHECK(round_extension(statement) == nullptr);
    CHECK(whole[6]["result"].contains("success"));
    CHECK(verb_of(whole[7]) == "failed");

    std::size_t before = memory::world().host_messages.size();
    app.send({{"type", "review"}});
    play_to_results(app, 2);
    const std::vector<nlohmann::json> round = statements_since(before);
    REQUIRE(round.size() == 4);   // attempted, two answered, completed: no passed or failed
    CHECK(verb_of(round[0]) == "attempted");
    CHECK(verb_of(round[1]) == "answered");
    CHECK(verb_of(round[3]) == "completed");
    for (const nlohmann::json& statement : round) {
        const nlohmann::json* extension = round_extension(statement);
        REQUIRE(extension != nullptr);
        CHECK(*extension == "review");
    }
    // An answer keeps its parent quiz beside the extension; the round's completion says no success.
    CHECK(round[1]["context"]["contextActivities"]["parent"][0]["id"] == "urn:imquiz:sample");
    CHECK(round[3]["result"]["completion"] == true);
    CHECK(round[3]["result"]["score"]["scaled"] == 1.0);
    CHECK_FALSE(round[3]["result"].contains("success"));

    // A round of due questions is one too.
    app.send({{"type", "catalog"}});
    memory::world().now_ms += 40.0 * day;
    before = memory::world().host_messages.size();
    app.send({{"type", "review-due"}, {"quiz", "sample"}});
    REQUIRE(app.screen().screen == app::Screen::Question);
    const std::vector<nlohmann::json> due = statements_since(before);
    REQUIRE(due.size() == 1);
    REQUIRE(round_extension(due[0]) != nullptr);
    CHECK(*round_extension(due[0]) == "review");
}

TEST_CASE("review round: kept as one through a reload, in progress and finished; a record without the flag reads as before") {
    const Bank bank = load_valid_bank(bank_json(five_questions));
    SessionOptions options;
    options.only_question_ids = {"capital", "pi"};
    options.now_ms = start;
    options.review = true;
    const Session round = start_session(bank, 7, options);
    CHECK(round.review);
    CHECK(imquiz::testing::stored_and_read(round).review);
    CHECK_FALSE(imquiz::testing::stored_and_read(start_session(bank, 7, SessionOptions{{}, start})).review);

    ProgressRecord record;
    record.bank_id = bank.id;
    record_finished_attempt(record, round, bank, start + 1000);
    REQUIRE(record.finished_attempts.size() == 1);
    CHECK(record.finished_attempts[0].review);
    CHECK_FALSE(record.best_percent);   // a round is not a score of the quiz
    const std::string encoded = encode_progress(record);
    CHECK(encoded.find("\"review\":true") != std::string::npos);
    const ProgressDecodeResult decoded = decode_progress(encoded);
    REQUIRE(decoded.record);
    CHECK(decoded.problems.empty());
    REQUIRE(decoded.record->finished_attempts.size() == 1);
    CHECK(decoded.record->finished_attempts[0].review);
    CHECK(results_of(decoded.record->finished_attempts[0], bank).review);

    // An attempt at the whole quiz writes no flag at all (records read by older builds stay as they were).
    ProgressRecord whole;
    whole.bank_id = bank.id;
    record_finished_attempt(whole, start_session(bank, 8, SessionOptions{{}, start}), bank, start + 1000);
    CHECK(encode_progress(whole).find("\"review\":true") == std::string::npos);
    CHECK(whole.best_percent);

    // Review mistakes makes a round.
    CHECK(retry_missed(bank, results(start_session(bank, 9, SessionOptions{{}, start}), bank), 10, start).review);
}
