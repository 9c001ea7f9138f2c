// Review across quizzes (the catalog's "Review all", engine/review_plan.h): the most urgent due
// questions of every quiz, at most one round's worth, played quiz by quiz in each quiz's own
// language and settings; the catalog's count of them, and, with nothing due, the next date.
#include "engine/review_plan.h"

#include "app_test_support.h"
#include "engine_test_support.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace imquiz;
using imquiz::testing::bank_json;
using imquiz::testing::day;
using imquiz::testing::five_questions;

namespace {

namespace memory = imquiz::platform::memory;
using imquiz::testing::TestApp;
using imquiz::testing::Url;

DueQuestion due(std::string id, double recall, std::int64_t due_ms = 0) { return DueQuestion{std::move(id), recall, due_ms}; }

using Ids = std::vector<std::string>;

// A catalog of two practice quizzes with five_questions each, "alpha" and "beta".
void boot_two_quizzes(TestApp& app, const std::string& language) {
    auto bank = [](const std::string& id, const std::string& en, const std::string& ru) {
        nlohmann::json json = nlohmann::json::parse(bank_json(five_questions, R"({"shuffleQuestions": false})"));
        json["id"] = id;
        json["title"] = {{"en", en}, {"ru", ru}};
        return json.dump();
    };
    memory::world().url_parameters = {{"lang", language}};
    memory::world().files["quizzes/index.json"] =
        R"({"format": "imquiz-catalog", "version": 1, "banks": [{"id": "alpha", "file": "alpha.json"}, {"id": "beta", "file": "beta.json"}]})";
    memory::world().files["quizzes/alpha.json"] = bank("alpha", "Alpha", "Альфа");
    memory::world().files["quizzes/beta.json"] = bank("beta", "Beta", "Бета");
    app.boot();
}

// Opens `quiz` and answers its five questions, the first `right` of them right, then back to the catalog.
void take_quiz(TestApp& app, const std::string& quiz, int right) {
    memory::world().now_ms += 60'000;
    app.send({{"type", "open"}, {"quiz", quiz}});
    imquiz::testing::answer_to_results(app, right);
    app.send({{"type", "catalog"}});
}

// Answers every question on screen right, to the results.
void answer_all_right(TestApp& app) {
    while (app.screen().screen == app::Screen::Question) imquiz::testing::answer_five_questions(app, true);
    REQUIRE(app.screen().screen == app::Screen::Results);
}

const app::ButtonModel* find_button(const std::vector<app::ButtonModel>& buttons, const std::string& id) {
    for (const auto& button : buttons)
        if (button.id == id) return &button;
    return nullptr;
}

}  // namespace

TEST_CASE("review plan: the most urgent questions of all banks, grouped by bank, banks by their most urgent") {
    const std::vector<std::vector<DueQuestion>> banks{
        {due("a", 0.3), due("b", 0.8)},
        {due("c", 0.1), due("d", 0.9)},
        {},
    };
    std::vector<ReviewLeg> legs = plan_review(banks, 20);
    REQUIRE(legs.size() == 2);
    CHECK(legs[0].bank == 1);
    CHECK(legs[0].question_ids == Ids{"c", "d"});
    CHECK(legs[1].bank == 0);
    CHECK(legs[1].question_ids == Ids{"a", "b"});

    // Three: c, a and b are the most urgent; d waits for the next round.
    legs = plan_review(banks, 3);
    REQUIRE(legs.size() == 2);
    CHECK(legs[0].question_ids == Ids{"c"});
    CHECK(legs[1].question_ids == Ids{"a", "b"});
    legs = plan_review(banks, 1);
    REQUIRE(legs.size() == 1);
    CHECK(legs[0].bank == 1);

    CHECK(plan_review(banks, 0).empty());
    CHECK(plan_review({}, 20).empty());
    CHECK(plan_review({{}, {}}, 20).empty());
}

TEST_CASE("review plan: equal recall goes to the longer overdue, then to the earlier bank") {
    const std::vector<std::vector<DueQuestion>> banks{
        {due("q", 0.5, 2000)},
        {due("q", 0.5, 1000), due("r", 0.5, 2000)},
        {due("q", 0.5, 2000)},
    };
    // Bank 1's q is overdue longest; then the q's of banks 0 and 2 ("q" < "r"), the earlier bank first.
    const std::vector<ReviewLeg> legs = plan_review(banks, 3);
    REQUIRE(legs.size() == 3);
    CHECK(legs[0].bank == 1);
    CHECK(legs[0].question_ids == Ids{"q"});
    CHECK(legs[1].bank == 0);
    CHECK(legs[2].bank == 2);
    // At a limit of two, the tie of the two "q"s goes to the earlier bank.
    const std::vector<ReviewLeg> two = plan_review(banks, 2);
    REQUIRE(two.size() == 2);
    CHECK(two[1].bank == 0);
    // And with room for all, bank 1's r joins its q: one leg per bank.
    const std::vector<ReviewLeg> all = plan_review(banks, 20);
    REQUIRE(all.size() == 3);
    CHECK(all[0].question_ids == Ids{"q", "r"});
}

TEST_CASE("review across quizzes on screen: the catalog's count, a round quiz by quiz, then the next date") {
    TestApp app(Url{}, false);
    boot_two_quizzes(app, "en");
    REQUIRE(app.screen().screen == app::Screen::Catalog);
    CHECK_FALSE(app.screen().catalog.review);   // nothing answered yet: nothing to say

    take_quiz(app, "alpha", 3);   // pi and hedgehog missed
    take_quiz(app, "beta", 4);    // hedgehog missed
    std::optional<app::ReviewAcrossModel> review = app.screen().catalog.review;
    REQUIRE(review);   // nothing due yet, but a date
    CHECK(review->due == 0);
    CHECK_FALSE(review->review);
    CHECK_THAT(review->text, Catch::Matchers::StartsWith("Nothing is due for review. Next review: "));

    memory::world().now_ms += 1.5 * day;   // the three missed are due, the rest not for days
    review = app.screen().catalog.review;
    REQUIRE(review);
    CHECK(review->heading == "Review");
    CHECK(review->due == 3);
    CHECK(review->quizzes == 2);
    CHECK(review->text == "Due for review in all quizzes: 3");
    REQUIRE(review->review);
    CHECK(review->review->label == "Review 3 from all quizzes");
    const nlohmann::json page = app.page();
    CHECK(page["catalog"]["review"]["due"] == 3);
    CHECK(page["catalog"]["review"]["quizzes"] == 2);
    CHECK(page["catalog"]["review"]["button"]["action"]["type"] == "review-all");

    // Alpha's were missed a minute earlier: the more forgotten, so alpha comes first.
    app.press(*review->review);
    app::ScreenModel screen = app.screen();
    REQUIRE(screen.screen == app::Screen::Question);
    CHECK(app.state.banks[static_cast<std::size_t>(app.state.active_bank)].id == "alpha");
    CHECK(screen.question.total == 2);
    answer_all_right(app);
    app::ResultsModel results = app.screen().results;
    CHECK(results.heading == "Review round: quiz 1 of 2");
    CHECK(results.verdict == "Practice: not counted as a score");
    REQUIRE_FALSE(results.buttons.empty());
    CHECK(results.buttons[0].id == "review-next");
    CHECK(results.buttons[0].label == "Next in this review: Beta");
    CHECK(results.buttons[0].style == app::ButtonModel::Style::Primary);
    CHECK(find_button(results.buttons, "catalog") != nullptr);

    app.send({{"type", "review-next"}});
    screen = app.screen();
    REQUIRE(screen.screen == app::Screen::Question);
    CHECK(app.state.banks[static_cast<std::size_t>(app.state.active_bank)].id == "beta");
    CHECK(screen.question.total == 1);
    CHECK(screen.question.id == "hedgehog");
    answer_all_right(app);
    results = app.screen().results;
    CHECK(results.heading == "Review round: quiz 2 of 2");
    CHECK(find_button(results.buttons, "review-next") == nullptr);   // the last
    CHECK_THAT(results.announcement, Catch::Matchers::StartsWith("Review round: quiz 2 of 2."));

    app.send({{"type", "catalog"}});
    review = app.screen().catalog.review;
    REQUIRE(review);
    CHECK(review->due == 0);
    CHECK_THAT(review->text, Catch::Matchers::StartsWith("Nothing is due for review. Next review: "));
    // Practice: the quizzes' best scores are their whole attempts'.
    CHECK(*app.screen().catalog.cards[0].best_percent == Approx(60));
    CHECK(*app.screen().catalog.cards[1].best_percent == Approx(80));
}

TEST_CASE("review across quizzes: left half way, what is left is still counted; a round of one quiz is a plain round; Russian") {
    TestApp app(Url{}, false);
    boot_two_quizzes(app, "ru");
    take_quiz(app, "alpha", 3);
    take_quiz(app, "beta", 4);
    memory::world().now_ms += 1.5 * day;
    std::optional<app::ReviewAcrossModel> review = app.screen().catalog.review;
    REQUIRE(review);
    CHECK(review->heading == "Повторение");
    CHECK(review->text == "К повторению во всех тестах: 3");
    REQUIRE(review->review);
    CHECK(review->review->label == "Повторить из всех тестов (3)");

    app.send({{"type", "review-all"}});
    answer_all_right(app);
    app::ResultsModel results = app.screen().results;
    CHECK(results.heading == "Повторение: тест 1 из 2");
    REQUIRE_FALSE(results.buttons.empty());
    CHECK(results.buttons[0].label == "Дальше в повторении: Бета");

    // Back to the catalog: the round is over; beta's question is still due and counted.
    app.send({{"type", "catalog"}});
    review = app.screen().catalog.review;
    REQUIRE(review);
    CHECK(review->due == 1);
    CHECK(review->quizzes == 1);
    CHECK(app.screen().catalog.cards[1].due == 1);
    // review-next outside a round does nothing.
    app.send({{"type", "review-next"}});
    CHECK(app.screen().screen == app::Screen::Catalog);

    // A round across quizzes that finds one quiz is that quiz's round, and says no "quiz 1 of 1".
    app.send({{"type", "review-all"}});
    REQUIRE(app.screen().screen == app::Screen::Question);
    CHECK(app.state.banks[static_cast<std::size_t>(app.state.active_bank)].id == "beta");
    answer_all_right(app);
    CHECK(app.screen().results.heading == "Повторение");
    CHECK(find_button(app.screen().results.buttons, "review-next") == nullptr);
}

TEST_CASE("review across quizzes: a quiz answered elsewhere in the meantime is passed over; never with one quiz") {
    TestApp app(Url{}, false);
    boot_two_quizzes(app, "en");
    take_quiz(app, "alpha", 3);
    take_quiz(app, "beta", 4);
    memory::world().now_ms += 1.5 * day;
    app.send({{"type", "review-all"}});
    REQUIRE(app.screen().screen == app::Screen::Question);
    // Beta's due question is reviewed before its turn comes (here, as another tab's attempt would
    // leave it: an attempt in progress, which no round replaces).
    app.state.banks[1].progress.attempt_in_progress = start_session(*app.state.banks[1].bank, 3, SessionOptions{{}, memory::world().now_ms});
    answer_all_right(app);
    CHECK(app.screen().results.heading == "Review round: quiz 1 of 2");
    app.send({{"type", "review-next"}});   // beta has nothing to review now: back to the catalog
    CHECK(app.screen().screen == app::Screen::Catalog);

    // One quiz in the catalog: its card says it all.
    TestApp single(Url{}, false);
    imquiz::testing::boot_with_quiz(single, bank_json(five_questions), "en");
    single.send({{"type", "catalog"}});
    CHECK_FALSE(single.screen().catalog.review);
}
