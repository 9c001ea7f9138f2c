// The review schedule (engine/schedule.h, FSRS-4.5): the first review of each grade, intervals
// that grow while answers stay right, a lapse, clock changes, a bank edited between reviews, two
// tabs, and the schedule's place in the progress record. The clock is moved over weeks; nothing
// waits.
#include "engine/progress.h"
#include "engine/schedule.h"
#include "engine/session.h"

#include "app_test_support.h"
#include "engine_test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

using namespace imquiz;
using imquiz::testing::bank_json;
using imquiz::testing::day;
using imquiz::testing::five_questions;
using imquiz::testing::load_valid_bank;
using imquiz::testing::start;

namespace {

std::int64_t interval_days(const ReviewCard& card) { return (due_ms(card) - card.last_ms) / day; }

using imquiz::testing::attempt;

}  // namespace

TEST_CASE("review schedule: the first answer of each grade, then intervals that grow while answers stay right") {
    const ReviewCard good = reviewed(std::nullopt, Grade::Good, start, "q");
    CHECK(good.stability == Approx(3.7145).margin(0.001));      // FSRS-4.5's first stability for Good, in days
    CHECK(good.difficulty == Approx(5.1618).margin(0.001));   // both kept to three decimals
    CHECK(interval_days(good) == 4);
    CHECK(good.reviews == 1);
    CHECK(good.lapses == 0);
    CHECK(recall_probability(good, start) == Approx(1.0));
    CHECK(recall_probability(good, start + 4 * day) == Approx(0.8935).epsilon(0.001));   // about 90% when due
    CHECK_FALSE(is_due(good, start + 4 * day - 1));
    CHECK(is_due(good, start + 4 * day));
    CHECK(interval_days(reviewed(std::nullopt, Grade::Again, start, "q")) == 1);   // 0.49 days, but at least one
    CHECK(reviewed(std::nullopt, Grade::Hard, start, "q").stability == Approx(1.4003).margin(0.001));
    CHECK(reviewed(std::nullopt, Grade::Again, start, "q").difficulty > good.difficulty);

    // Right each time it falls due: the second interval is about 15 days, and each is longer.
    ReviewCard card = good;
    std::int64_t now = start;
    std::vector<std::int64_t> intervals{interval_days(card)};
    for (int review = 0; review < 6; ++review) {
        now = due_ms(card);
        card = reviewed(card, Grade::Good, now, "q");
        intervals.push_back(interval_days(card));
    }
    CHECK(intervals[1] == 15);   // S = 3.7145 x (1 + e^1.6474 x 5.8382 x 3.7145^-0.1367 x (e^(0.1065 x 1.0461) - 1)) = 14.808
    for (std::size_t i = 1; i < intervals.size(); ++i) CHECK(intervals[i] > intervals[i - 1]);
    CHECK(intervals.back() > 365);   // seven right answers: more than a year
    CHECK(card.reviews == 7);
    // Hard grows it less than Good; a review long overdue grows it more than one on time.
    const ReviewCard second = reviewed(good, Grade::Good, start + 4 * day, "q");
    CHECK(reviewed(good, Grade::Hard, start + 4 * day, "q").stability < second.stability);
    CHECK(reviewed(good, Grade::Good, start + 20 * day, "q").stability > second.stability);
    // Answered again a minute later: almost nothing is learnt from it (recall was all but certain).
    CHECK(reviewed(good, Grade::Good, start + 60'000, "q").stability == Approx(good.stability).margin(0.01));
}

TEST_CASE("review schedule: a lapse shortens the interval, raises the difficulty and is counted") {
    ReviewCard card = reviewed(reviewed(std::nullopt, Grade::Good, start, "q"), Grade::Good, start + 4 * day, "q");
    REQUIRE(card.stability == Approx(14.808));
    const std::int64_t when = due_ms(card);
    const ReviewCard lapsed = reviewed(card, Grade::Again, when, "q");
    CHECK(lapsed.stability == Approx(3.149).epsilon(0.001));
    CHECK(interval_days(lapsed) == 3);
    CHECK(lapsed.difficulty == Approx(6.901).epsilon(0.001));
    CHECK(lapsed.lapses == 1);
    CHECK(lapsed.reviews == 3);
    // Forgetting never makes a memory stronger, even one of a day.
    const ReviewCard fresh = reviewed(std::nullopt, Grade::Again, start, "q");
    CHECK(reviewed(fresh, Grade::Again, start + day, "q").stability <= fresh.stability);
    // Again and again: the difficulty stays within 1..10.
    ReviewCard hard = fresh;
    for (int i = 1; i <= 30; ++i) hard = reviewed(hard, Grade::Again, start + i * day, "q");
    CHECK(hard.difficulty <= 10);
    CHECK(hard.stability >= 0.001);
}

TEST_CASE("review schedule: a clock set back counts as no time, and never moves a review back") {
    const ReviewCard card = reviewed(std::nullopt, Grade::Good, start + 10 * day, "q");
    CHECK(recall_probability(card, start) == Approx(1.0));            // a day before the review
    const ReviewCard again = reviewed(card, Grade::Good, start, "q");    // answered "before" it
    CHECK(again.last_ms == card.last_ms);
    CHECK(again.stability == Approx(card.stability));
    CHECK(due_ms(again) >= due_ms(card));
    // Times are kept to the second, as stored; the same answers at the same times, the same card.
    const ReviewCard odd = reviewed(std::nullopt, Grade::Good, start + 1'234, "q");
    CHECK(odd.last_ms == start + 1'000);
    CHECK(reviewed(std::nullopt, Grade::Good, start + 1'234, "q").stability == odd.stability);
}

TEST_CASE("review schedule: grades from a quiz's outcomes") {
    CHECK(grade_of(Outcome::Correct, 1, 0) == Grade::Good);
    CHECK(grade_of(Outcome::Correct, 2, 0) == Grade::Hard);   // right after another try
    CHECK(grade_of(Outcome::Correct, 1, 1) == Grade::Hard);   // right after a hint
    CHECK(grade_of(Outcome::Partial, 1, 0) == Grade::Hard);
    CHECK(grade_of(Outcome::Wrong, 1, 0) == Grade::Again);
    CHECK(grade_of(Outcome::Skipped, 0, 0) == Grade::Again);
}

TEST_CASE("review schedule in the progress record: due questions over weeks, most forgotten first") {
    const Bank bank = load_valid_bank(bank_json(five_questions));
    ProgressRecord record;
    record.bank_id = bank.id;
    attempt(record, bank, start, {{"capital", true}, {"primes", false}, {"earth-flat", true}});
    REQUIRE(record.question_stats.at("capital").review);
    const bool pi_scheduled = record.question_stats.count("pi") && record.question_stats.at("pi").review;
    CHECK_FALSE(pi_scheduled);   // skipped: not scheduled
    CHECK(due_for_review(record, bank, start + day / 2).empty());
    CHECK(due_for_review(record, bank, start + day) == std::vector<std::string>{"primes"});
    const std::vector<std::string> later = due_for_review(record, bank, start + 4 * day);
    CHECK(later == std::vector<std::string>{"primes", "capital", "earth-flat"});   // primes, overdue, first
    // Answered again a week later: primes right now, capital wrong.
    attempt(record, bank, start + 7 * day, {{"capital", false}, {"primes", true}, {"earth-flat", true}});
    CHECK(record.question_stats.at("capital").review->lapses == 1);
    CHECK(record.question_stats.at("primes").review->reviews == 2);
    // Capital forgotten: due two days later; primes and earth-flat in two and three weeks.
    CHECK(due_for_review(record, bank, start + 9 * day - 1).empty());
    CHECK(due_for_review(record, bank, start + 9 * day) == std::vector<std::string>{"capital"});
    CHECK(due_for_review(record, bank, start + 30 * day) == std::vector<std::string>{"capital", "primes", "earth-flat"});

    // Stored and read back: the same schedule, in an array per question.
    const std::string encoded = encode_progress(record);
    CHECK(encoded.find("\"review\":[") != std::string::npos);
    const ProgressDecodeResult decoded = decode_progress(encoded);
    REQUIRE(decoded.record);
    CHECK(decoded.problems.empty());
    for (const auto& [id, stats] : record.question_stats) {
        INFO(id);
        REQUIRE(decoded.record->question_stats.at(id).review.has_value() == stats.review.has_value());
        if (!stats.review) continue;
        const ReviewCard& read = *decoded.record->question_stats.at(id).review;
        CHECK(read.stability == stats.review->stability);
        CHECK(read.difficulty == stats.review->difficulty);
        CHECK(read.last_ms == stats.review->last_ms);
        CHECK(read.reviews == stats.review->reviews);
        CHECK(read.lapses == stats.review->lapses);
        CHECK(read.question == stats.review->question);
    }
    CHECK(due_for_review(*decoded.record, bank, start + 9 * day) == std::vector<std::string>{"capital"});
    // A schedule the scheduler cannot give is refused where it is, and the rest is kept.
    std::string forged = encoded;
    const std::size_t at = forged.find("\"review\":[") + 10;
    forged.replace(at, forged.find(',', at) - at, "-2");
    const ProgressDecodeResult refused = decode_progress(forged);
    REQUIRE(refused.record);
    REQUIRE(refused.problems.size() == 1);
    CHECK_THAT(refused.problems[0], Catch::Matchers::Contains(".review: not a schedule the scheduler gives"));
}

TEST_CASE("review schedule: a question edited between reviews leaves it; a reworded one keeps it") {
    const Bank bank = load_valid_bank(bank_json(five_questions));
    ProgressRecord record;
    record.bank_id = bank.id;
    attempt(record, bank, start, {{"capital", true}, {"primes", true}, {"earth-flat", true}});
    Bank edited = bank;
    for (Question& question : edited.questions) {
        if (question.id == "capital") question.prompt = LocalizedText::same_in_all_languages("Which city is the capital of France?");
        if (question.id == "earth-flat") question.true_false_answer = !question.true_false_answer;   // another question now
    }
    edited.questions.erase(std::remove_if(edited.questions.begin(), edited.questions.end(),
                                          [](const Question& q) { return q.id == "primes"; }),
                           edited.questions.end());
    CHECK(due_for_review(record, edited, start + 30 * day) == std::vector<std::string>{"capital"});
    const std::vector<std::string> notes = reconcile_with_bank(record, edited);
    CHECK(std::find(notes.begin(), notes.end(),
                    "2 question(s) of bank \"" + bank.id +
                        "\" changed or were removed since they were last answered: they leave the review schedule") != notes.end());
    CHECK(record.question_stats.at("capital").review);
    CHECK_FALSE(record.question_stats.at("earth-flat").review);
    CHECK_FALSE(record.question_stats.at("primes").review);
    CHECK(record.question_stats.at("primes").seen == 1);   // its statistics stay
    // Answered again as it is now: scheduled afresh, its first review.
    attempt(record, edited, start + 2 * day, {{"earth-flat", true}});
    CHECK(record.question_stats.at("earth-flat").review->reviews == 1);
}

TEST_CASE("review schedule: two tabs keep the later answer's schedule, and each other's questions") {
    const Bank bank = load_valid_bank(bank_json(five_questions));
    ProgressRecord first, second;
    first.bank_id = second.bank_id = bank.id;
    attempt(first, bank, start, {{"capital", true}, {"primes", false}});
    attempt(second, bank, start + day, {{"capital", false}, {"earth-flat", true}});
    ProgressRecord merged = first;
    merge_progress(merged, second);
    CHECK(merged.question_stats.at("capital").review->last_ms == second.question_stats.at("capital").review->last_ms);
    CHECK(merged.question_stats.at("primes").review);
    CHECK(merged.question_stats.at("earth-flat").review);
    // The other way round, the same.
    ProgressRecord other_way = second;
    merge_progress(other_way, first);
    CHECK(other_way.question_stats.at("capital").review->last_ms == second.question_stats.at("capital").review->last_ms);
    CHECK(other_way.question_stats.at("primes").review);
}

namespace {

namespace memory = imquiz::platform::memory;
using imquiz::testing::TestApp;
using imquiz::testing::Url;

using imquiz::testing::only_card;

void answer(TestApp& app, bool right) { imquiz::testing::answer_five_questions(app, right); }

}  // namespace

TEST_CASE("review round on screen: the due count on the card, a round of them most forgotten first, then none due") {
    const std::string bank = bank_json(five_questions, R"({"shuffleQuestions": false})");
    TestApp app(Url{}, false);
    imquiz::testing::boot_with_quiz(app, bank, "en");
    REQUIRE(app.screen().screen == app::Screen::Question);
    for (const char* id : {"capital", "primes", "earth-flat", "pi", "hedgehog"}) {
        (void)id;
        if (app.screen().screen != app::Screen::Question) break;
        const std::string shown = app.screen().question.id;
        answer(app, shown != "primes" && shown != "capital");   // two wrong
    }
    REQUIRE(app.screen().screen == app::Screen::Results);
    app.send({{"type", "catalog"}});
    CHECK(only_card(app.screen()).due == 0);
    CHECK(app.page()["banks"][0]["due"] == 0);
    // The catalog wakes for the next one to fall due, within the hour, with no input.
    memory::world().wake_after_ms = -1;
    imquiz::app::poll(app.state);
    CHECK(memory::world().wake_after_ms <= 3'600'000);
    CHECK(memory::world().wake_after_ms > 0);

    memory::world().now_ms += 1.5 * day;   // a day and a half later: the two missed are due
    app::CardModel card = only_card(app.screen());
    CHECK(card.due == 2);
    CHECK_THAT(card.standing, Catch::Matchers::EndsWith("Due for review: 2"));
    REQUIRE(card.buttons.size() == 2);
    CHECK(card.buttons[1].id == "review-due:sample");
    CHECK(card.buttons[1].label == "Review 2 due");
    app.send({{"type", "review-due"}, {"quiz", "sample"}});
    app::ScreenModel screen = app.screen();
    REQUIRE(screen.screen == app::Screen::Question);
    CHECK(screen.question.total == 2);
    // While the round is on, the card offers to continue it, not another round.
    app.send({{"type", "catalog"}});
    CHECK(only_card(app.screen()).due == 0);
    app.send({{"type", "open"}, {"quiz", "sample"}});
    while (app.screen().screen == app::Screen::Question) answer(app, true);
    REQUIRE(app.screen().screen == app::Screen::Results);
    CHECK(app.screen().results.rows.size() == 2);
    app.send({{"type", "catalog"}});
    CHECK(only_card(app.screen()).due == 0);   // both answered right: due again in days

    // A month on, every question is due; the most forgotten come first: capital and primes, missed
    // once and then right, have the weakest memories (about 3.2 days against 3.7 for the others),
    // equal, so by id.
    memory::world().now_ms += 30.0 * day;
    card = only_card(app.screen());
    CHECK(card.due == 5);
    app.press(card.buttons[1]);
    std::vector<std::string> order;
    while (app.screen().screen == app::Screen::Question) {
        order.push_back(app.screen().question.id);
        answer(app, true);
    }
    CHECK(order.size() == 5);
    CHECK(std::vector<std::string>(order.begin(), order.begin() + 2) == std::vector<std::string>{"capital", "primes"});
}

TEST_CASE("review round: never for an exam, and never in place of an attempt in progress") {
    TestApp app(Url{}, false);
    imquiz::testing::boot_with_quiz(app, bank_json(five_questions, R"({"mode": "exam", "maxAttempts": 0})"), "en");
    app.send({{"type", "select"}, {"choice", "lyon"}});
    app.send({{"type", "submit"}});
    app.send({{"type", "confirm-submit"}});
    app.send({{"type", "catalog"}});
    memory::world().now_ms += 10.0 * day;
    CHECK(only_card(app.screen()).due == 0);
    app.send({{"type", "review-due"}, {"quiz", "sample"}});
    CHECK(app.screen().screen == app::Screen::Catalog);
}
