// Progress a learner can see (issue: spaced review and progress): what is known per tag and per
// bank (engine/mastery.h), the results screen's chart of past scores and bars per tag, the catalog
// card's indicator and next review date, in the screen model and the page protocol.
#include "engine/mastery.h"
#include "engine/schedule.h"

#include "app_test_support.h"
#include "engine_test_support.h"

#include <catch2/catch.hpp>

using namespace imquiz;
using imquiz::testing::attempt;
using imquiz::testing::bank_json;
using imquiz::testing::day;
using imquiz::testing::five_questions;
using imquiz::testing::load_valid_bank;
using imquiz::testing::start;

namespace {

// five_questions with tags: capital and earth-flat "geography", primes and pi "maths", earth-flat
// also "science"; hedgehog keeps its "animals".
std::string tagged_questions() {
    std::string questions = five_questions;
    const auto tag = [&](const std::string& id, const std::string& tags) {
        const std::string opening = "{\"id\": \"" + id + "\",";
        const std::size_t at = questions.find(opening);
        REQUIRE(at != std::string::npos);
        questions.insert(at + opening.size(), " \"tags\": " + tags + ",");
    };
    tag("capital", R"(["geography"])");
    tag("primes", R"(["maths"])");
    tag("earth-flat", R"(["geography", "science"])");
    tag("pi", R"(["maths"])");
    return questions;
}

const Mastery& entry(const std::vector<Mastery>& tags, const std::string& tag) {
    const auto found = std::find_if(tags.begin(), tags.end(), [&](const Mastery& m) { return m.tag == tag; });
    REQUIRE(found != tags.end());
    return *found;
}

}  // namespace

TEST_CASE("mastery: per tag and per bank, seen, right at least once, due now") {
    const Bank bank = load_valid_bank(bank_json(tagged_questions()));
    REQUIRE(bank.questions.size() == 5);
    ProgressRecord record;

    // Nothing yet: every question counted, none seen.
    std::vector<Mastery> tags = mastery_by_tag(record, bank, start);
    REQUIRE(tags.size() == 4);
    CHECK(tags[0].tag == "geography");   // in the order the tags first appear
    CHECK(tags[1].tag == "maths");
    CHECK(tags[2].tag == "science");
    CHECK(tags[3].tag == "animals");
    CHECK(entry(tags, "geography").questions == 2);
    CHECK(entry(tags, "geography").seen == 0);
    CHECK_FALSE(next_review_ms(record, bank));

    // capital right, primes wrong, earth-flat right; pi and hedgehog left unanswered.
    attempt(record, bank, start, {{"capital", true}, {"primes", false}, {"earth-flat", true}});
    tags = mastery_by_tag(record, bank, start + day / 2);
    CHECK(entry(tags, "geography").seen == 2);
    CHECK(entry(tags, "geography").right == 2);
    CHECK(entry(tags, "maths").seen == 2);           // pi was in the attempt, unanswered
    CHECK(entry(tags, "maths").right == 0);
    CHECK(entry(tags, "science").right == 1);        // earth-flat counts under both its tags
    CHECK(entry(tags, "maths").due == 0);            // half a day on: nothing due yet
    Mastery whole = bank_mastery(record, bank, start + day / 2);
    CHECK(whole.questions == 5);
    CHECK(whole.seen == 5);
    CHECK(whole.right == 2);
    CHECK(whole.due == 0);

    // The wrong one falls due first (a day), the right ones days later; unanswered ones never.
    const std::optional<std::int64_t> next = next_review_ms(record, bank);
    REQUIRE(next);
    CHECK(*next == due_ms(*record.question_stats.at("primes").review));
    CHECK(*next < due_ms(*record.question_stats.at("capital").review));
    tags = mastery_by_tag(record, bank, *next);
    CHECK(entry(tags, "maths").due == 1);
    CHECK(entry(tags, "geography").due == 0);
    CHECK(bank_mastery(record, bank, start + 30 * day).due == 3);

    // Right later: counted as right, and no longer due.
    attempt(record, bank, start + 2 * day, {{"primes", true}});
    whole = bank_mastery(record, bank, start + 2 * day + 1000);
    CHECK(whole.right == 3);
    CHECK(whole.due == 0);
}

TEST_CASE("mastery: a bank without tags is one entry; an edited bank counts as it is now") {
    std::string untagged = five_questions;
    untagged.replace(untagged.find(R"(,
   "tags": ["animals"])"), std::string(R"(,
   "tags": ["animals"])").size(), "");
    const Bank bank = load_valid_bank(bank_json(untagged));
    REQUIRE(bank.questions.size() == 5);
    ProgressRecord record;
    attempt(record, bank, start, {{"capital", false}, {"primes", true}});
    std::vector<Mastery> tags = mastery_by_tag(record, bank, start);
    REQUIRE(tags.size() == 1);
    CHECK(tags[0].tag.empty());
    CHECK(tags[0].questions == 5);
    CHECK(tags[0].right == 1);

    // The five_questions bank with its one tag: "animals", then the other four without one.
    const Bank one_tag = load_valid_bank(bank_json(five_questions));
    tags = mastery_by_tag(record, one_tag, start);
    REQUIRE(tags.size() == 2);
    CHECK(tags[0].tag == "animals");
    CHECK(tags[1].tag.empty());
    CHECK(tags[1].questions == 4);

    // capital removed: it counts nowhere. primes changed (another key): still seen and right once,
    // but its schedule was made on the old question, so it is not due and gives no next review.
    Bank edited = bank;
    edited.questions.erase(edited.questions.begin());
    REQUIRE(edited.questions[0].id == "primes");
    edited.questions[0].choices[2].correct = true;
    const Mastery whole = bank_mastery(record, edited, start + 40 * day);
    CHECK(whole.questions == 4);
    CHECK(whole.seen == 4);
    CHECK(whole.right == 1);
    CHECK(whole.due == 0);
    CHECK_FALSE(next_review_ms(record, edited));
}

namespace {

namespace memory = imquiz::platform::memory;
using imquiz::testing::answer_five_questions;
using imquiz::testing::only_card;
using imquiz::testing::TestApp;
using imquiz::testing::Url;

// One attempt through the app, `right` of the five answered right (in the bank's order).
void play(TestApp& app, int right) {
    app.send({{"type", "open"}, {"quiz", "sample"}});
    if (app.screen().screen == app::Screen::Results) app.send({{"type", "retry"}});
    imquiz::testing::answer_to_results(app, right);
}

}  // namespace

TEST_CASE("progress on screen: the chart of past scores, bars per tag, the card's indicator and next review") {
    TestApp app(Url{}, false);
    imquiz::testing::boot_with_quiz(app, bank_json(tagged_questions(), R"({"shuffleQuestions": false, "passPercent": 60})"), "en");
    REQUIRE(app.screen().screen == app::Screen::Question);
    int answered = 0;
    while (app.screen().screen == app::Screen::Question) answer_five_questions(app, answered++ < 2);   // 2 of 5

    // The first attempt: no chart (one bar is no trend), the bars per tag.
    app::ResultsModel results = app.screen().results;
    CHECK(results.scores.bars.empty());
    REQUIRE(results.mastery.bars.size() == 4);
    CHECK(results.mastery.heading == "By topic");
    CHECK(results.mastery.bars[0].topic == "geography");
    CHECK(results.mastery.bars[0].questions == 2);
    CHECK(results.mastery.bars[0].seen == 2);
    CHECK(results.mastery.bars[0].right == 1);   // capital right, earth-flat wrong
    CHECK(results.mastery.bars[0].counts == "Seen 2  ·  Right 1  ·  Due 0");
    CHECK(results.mastery.table.columns == std::vector<std::string>{"Topic", "Questions", "Seen", "Right", "Due"});
    CHECK(results.mastery.table.rows[1] == std::vector<std::string>{"maths", "2", "2", "1", "0"});   // primes right, pi wrong

    // The card: the indicator, and when the first question falls due (the wrong ones: a day).
    app.send({{"type", "catalog"}});
    app::CardModel card = only_card(app.screen());
    REQUIRE(card.progress);
    CHECK(card.progress->questions == 5);
    CHECK(card.progress->seen == 5);
    CHECK(card.progress->right == 2);
    CHECK(card.progress->text == "Right at least once: 2 of 5");
    CHECK_THAT(card.standing, Catch::Matchers::EndsWith("Next review: 2026-01-02"));
    CHECK(app.page()["banks"][0]["progress"]["right"] == 2);

    // Two more attempts: three bars, oldest first, numbered, the last one current.
    memory::world().now_ms += 0.5 * day;
    play(app, 5);
    memory::world().now_ms += 0.25 * day;
    play(app, 1);
    results = app.screen().results;
    REQUIRE(results.scores.bars.size() == 3);
    CHECK(results.scores.heading == "Your scores");
    CHECK(results.scores.pass_line == "Pass mark: 60%");
    CHECK(results.scores.bars[0].label == "1");
    CHECK(results.scores.bars[0].value == "40%");
    CHECK_FALSE(results.scores.bars[0].passed);
    CHECK(results.scores.bars[1].value == "100%");
    CHECK(results.scores.bars[1].passed);
    CHECK(results.scores.bars[2].label == "3");
    CHECK(results.scores.bars[2].value == "20%");
    CHECK(results.scores.bars[2].current);
    CHECK_FALSE(results.scores.bars[1].current);
    REQUIRE(results.scores.table.rows.size() == 3);
    CHECK(results.scores.table.columns == std::vector<std::string>{"Attempt", "Date", "Score", "Result"});
    CHECK(results.scores.table.rows[1] == std::vector<std::string>{"2", "2026-01-01", "100%", "Passed"});
    // The page protocol carries both pictures' numbers and tables.
    const nlohmann::json shown = app.page();
    REQUIRE(shown["screen"] == "results");
    CHECK(shown["results"]["scores"]["bars"].size() == 3);
    CHECK(shown["results"]["scores"]["bars"][2]["current"] == true);
    CHECK(shown["results"]["scores"]["table"]["rows"][0][2] == "40%");
    CHECK(shown["results"]["mastery"]["bars"][3]["topic"] == "animals");
    CHECK(shown["results"]["mastery"]["table"]["caption"] == "By topic");
    // Every question right at least once now.
    app.send({{"type", "catalog"}});
    CHECK(only_card(app.screen()).progress->right == 5);
    const nlohmann::json page = app.page();
    CHECK(page["banks"][0]["progress"]["text"] == "Right at least once: 5 of 5");

}

TEST_CASE("progress on screen: the last ten attempts in the chart, numbered among all; Russian words") {
    TestApp app(Url{}, false);
    imquiz::testing::boot_with_quiz(app, bank_json(five_questions, R"({"shuffleQuestions": false})"), "ru");
    while (app.screen().screen == app::Screen::Question) answer_five_questions(app, true);
    for (int i = 0; i < 11; ++i) {
        memory::world().now_ms += 60'000;
        play(app, i % 6);
    }
    const app::ResultsModel results = app.screen().results;
    REQUIRE(results.scores.bars.size() == 10);
    CHECK(results.scores.bars.front().label == "3");
    CHECK(results.scores.bars.back().label == "12");
    CHECK(results.scores.bars.back().current);
    CHECK(results.scores.heading == "Ваши результаты");
    CHECK(results.scores.table.columns[0] == "Попытка");
    // One tag in the bank: its bar, then the others' under "Other questions".
    REQUIRE(results.mastery.bars.size() == 2);
    CHECK(results.mastery.bars[0].topic == "animals");
    CHECK(results.mastery.bars[1].topic == "Другие вопросы");
    CHECK(results.mastery.heading == "По темам");
    app.send({{"type", "catalog"}});
    CHECK(only_card(app.screen()).progress->text == "Верно хотя бы раз: 5 из 5");
}

TEST_CASE("progress on screen: a tag is the author's text, made safe, never markup") {
    std::string questions = five_questions;
    const std::string tags = R"("tags": ["animals"])";
    questions.replace(questions.find(tags), tags.size(), R"("tags": ["<b>x</b>\u202eevil"])");
    TestApp app(Url{}, false);
    imquiz::testing::boot_with_quiz(app, bank_json(questions, R"({"shuffleQuestions": false})"), "en");
    while (app.screen().screen == app::Screen::Question) answer_five_questions(app, true);
    const app::ResultsModel results = app.screen().results;
    REQUIRE(results.mastery.bars.size() == 2);
    const std::string& topic = results.mastery.bars[0].topic;
    CHECK(topic.find("\u202e") == std::string::npos);   // the bidi override neutralized
    CHECK(topic.find("<b>x</b>") == 0);                   // shown as the text it is
}
