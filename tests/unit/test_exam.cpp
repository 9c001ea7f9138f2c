// Exam mode (Settings::Mode::Exam): how it loads and what it refuses, answers recorded as given and
// replaced, any order, flags, submit with the unanswered named, resume through the progress record,
// and what the screen model gives every rendering (palette, no Check, the confirmation, the
// results with the review or the score only).
#include "engine/bank_writer.h"
#include "engine/progress.h"
#include "engine/session.h"

#include "app_test_support.h"
#include "engine_test_support.h"

#include <catch2/catch.hpp>

using namespace imquiz;
using namespace imquiz::app;
using imquiz::testing::bank_json;
using imquiz::testing::bank_problems;
using imquiz::testing::five_questions;
using imquiz::testing::load_valid_bank;
using imquiz::testing::TestApp;
using imquiz::testing::Url;

namespace {

std::string exam_bank(const char* extra_settings = "") {
    return bank_json(five_questions, std::string(R"({"mode": "exam")") + extra_settings + "}");
}

std::size_t index_of(const Session& session, const char* id) {
    for (std::size_t i = 0; i < session.questions.size(); ++i)
        if (session.questions[i].question_id == id) return i;
    FAIL("no question " << id);
    return 0;
}

}  // namespace

TEST_CASE("exam: the mode loads, writes back, keys the attempt, and refuses what an exam cannot do") {
    const Bank bank = load_valid_bank(exam_bank(R"(, "showAfterSubmit": "score")"));
    CHECK(bank.settings.mode == Settings::Mode::Exam);
    CHECK_FALSE(bank.settings.review_after_submit);
    const Bank again = load_valid_bank(bank_to_json(bank));
    CHECK(again.settings.mode == Settings::Mode::Exam);
    CHECK_FALSE(again.settings.review_after_submit);
    const Bank practice = load_valid_bank(bank_json(five_questions));
    CHECK(bank_fingerprint(bank) != bank_fingerprint(practice));   // a practice attempt does not go on as an exam

    using Catch::Matchers::Contains;
    CHECK_THAT(bank_problems(bank_json(five_questions, R"({"mode": "test"})"))[0],
               Contains("settings.mode") && Contains(R"(mode is "practice" or "exam", got "test")"));
    CHECK_THAT(bank_problems(bank_json(five_questions, R"({"mode": "exam", "showAfterSubmit": "nothing"})"))[0],
               Contains("settings.showAfterSubmit"));
    CHECK_THAT(bank_problems(exam_bank(R"(, "maxTries": 2)"))[0], Contains("settings.maxTries") && Contains("maxTries is for practice"));
    const std::string tries_on_question = bank_json(R"([{"id": "q", "type": "true_false", "prompt": "p", "explanation": "e",
      "answer": true, "maxTries": 3}])", R"({"mode": "exam"})");
    CHECK_THAT(bank_problems(tries_on_question)[0], Contains("questions[0].maxTries") && Contains("maxTries is for practice"));
}

TEST_CASE("exam: answers are recorded as given, replaced, cleared; any order; flags; submit") {
    const Bank bank = load_valid_bank(exam_bank());
    Session session = start_session(bank, 5);
    const std::size_t capital = index_of(session, "capital"), pi = index_of(session, "pi"), hedgehog = index_of(session, "hedgehog");
    CHECK(unanswered_questions(session).size() == 5);

    REQUIRE(record_exam_answer(session, bank, capital, Response::choices({"lyon"}), 10));
    CHECK(session.questions[capital].answer->score == 0);
    REQUIRE(record_exam_answer(session, bank, capital, Response::choices({"paris"}), 11));   // changed
    CHECK(session.questions[capital].answer->score == 1);
    CHECK(session.questions[capital].answer->correct);
    // A number that is not one is kept as typed, and scores 0; nothing at all is no answer.
    REQUIRE(record_exam_answer(session, bank, pi, Response::typed("три"), 12));
    CHECK(session.questions[pi].answer->response.text == "три");
    CHECK(session.questions[pi].answer->score == 0);
    REQUIRE(record_exam_answer(session, bank, hedgehog, Response::typed("ёж"), 13));
    REQUIRE(record_exam_answer(session, bank, hedgehog, Response::typed("   "), 14));
    CHECK_FALSE(session.questions[hedgehog].answer);
    REQUIRE(record_exam_answer(session, bank, hedgehog, std::nullopt, 15));
    CHECK_FALSE(session.questions[hedgehog].answer);
    CHECK_FALSE(record_exam_answer(session, bank, 99, Response::typed("x"), 16));

    CHECK(go_to_question(session, 4, 20));
    CHECK(session.current == 4);
    CHECK(go_to_question(session, 0, 21));
    CHECK_FALSE(go_to_question(session, 5, 22));
    CHECK(toggle_flag(session, 3));
    CHECK(session.questions[3].flagged);
    CHECK(toggle_flag(session, 3));
    CHECK_FALSE(session.questions[3].flagged);
    toggle_flag(session, 2);
    CHECK(unanswered_questions(session).size() == 3);

    const Session resumed = imquiz::testing::stored_and_read(session);
    CHECK(session_matches_bank(resumed, bank));
    CHECK(resumed.questions[2].flagged);
    CHECK(resumed.questions[capital].answer->response == Response::choices({"paris"}));

    submit_exam(session, 30);
    CHECK(is_finished(session));
    CHECK_FALSE(record_exam_answer(session, bank, capital, Response::choices({"lyon"}), 31));   // too late
    CHECK_FALSE(toggle_flag(session, 0));
    const Results r = results(session, bank);
    CHECK(r.score == 1);
    CHECK(r.questions[capital].outcome == Outcome::Correct);
    CHECK(r.questions[pi].outcome == Outcome::Wrong);
    CHECK(r.questions[hedgehog].outcome == Outcome::Skipped);
}

namespace {

namespace memory = imquiz::platform::memory;

void open_exam(TestApp& app, const std::string& bank, const char* language) {
    imquiz::testing::boot_with_quiz(app, bank, language);
    REQUIRE(app.screen().screen == Screen::Question);
}

// The same, where the quiz may open on its results (no attempts left).
void open_exam_or_results(TestApp& app, const std::string& bank, const char* language) {
    imquiz::testing::boot_with_quiz(app, bank, language);
}

}  // namespace

TEST_CASE("exam on screen: the palette, no Check, answers kept across moves and a reload, flags, the confirmation, results") {
    const std::string bank = bank_json(five_questions, R"({"mode": "exam", "shuffleQuestions": false, "shuffleChoices": false})");
    std::map<std::string, std::string> stored;
    {
        TestApp app(Url{}, false);
        open_exam(app, bank, "en");
        QuestionModel q = app.screen().question;
        REQUIRE(q.exam);
        CHECK(q.exam->palette.size() == 5);
        CHECK(q.exam->palette[0].current);
        CHECK(q.exam->palette[0].label == "Question 1 of 5: not answered, shown now");
        CHECK(q.exam->answered == "Answered: 0 of 5");
        CHECK_FALSE(q.exam->previous);
        CHECK(q.primary.id == "next");
        CHECK(q.primary.label == "Next");
        CHECK(q.shortcuts == "Keys: 1–9 choose · Enter next question · Esc back");

        app.send({{"type", "select"}, {"choice", "lyon"}});   // a wrong answer: nothing is told
        q = app.screen().question;
        CHECK_FALSE(q.checked);
        CHECK_FALSE(q.try_again);
        for (const ChoiceModel& choice : q.choices) CHECK(choice.feedback.empty());
        CHECK(q.exam->palette[0].answered);
        CHECK(app.page()["question"]["exam"]["palette"][0]["answered"] == true);
        app.send({{"type", "check"}});                        // not an exam's action: nothing happens
        CHECK_FALSE(app.screen().question.checked);

        app.send({{"type", "flag"}});
        CHECK(app.screen().question.exam->palette[0].flagged);
        CHECK(app.screen().question.exam->flag.label == "Remove the flag");
        app.send({{"type", "go-to"}, {"question", 4}});
        q = app.screen().question;
        CHECK(q.index == 4);
        CHECK(q.exam->previous);
        app.send({{"type", "type"}, {"text", "3,14"}});
        app.send({{"type", "previous"}});
        app.send({{"type", "previous"}});
        app.send({{"type", "previous"}});
        q = app.screen().question;
        CHECK(q.index == 1);
        bool lyon = false;
        for (const ChoiceModel& choice : q.choices) lyon |= choice.id == "lyon" && choice.selected;
        CHECK(lyon);   // the answer given is there again
        stored = memory::world().storage;
    }
    TestApp app(Url{}, false);
    memory::world().storage = stored;
    open_exam(app, bank, "ru");
    QuestionModel q = app.screen().question;
    REQUIRE(q.exam);
    CHECK(q.exam->answered == "Отвечено: 2 из 5");
    CHECK(q.exam->palette[0].flagged);
    CHECK(q.exam->palette[3].answered);
    app.send({{"type", "go-to"}, {"question", 5}});
    q = app.screen().question;
    CHECK(q.primary.id == "finish");   // the last question: Submit in the place of Next
    app.press(q.primary);
    q = app.screen().question;
    REQUIRE(q.exam->confirmation);
    CHECK(q.exam->confirmation->question == "Сдать ответы? Изменить их потом будет нельзя.");
    CHECK(q.exam->unanswered == "Без ответа: 2, 3, 5.");
    CHECK_FALSE(q.primary.enabled);
    app.send({{"type", "select"}, {"choice", "x"}});   // nothing changes under the question
    app.send({{"type", "cancel-submit"}});
    CHECK_FALSE(app.screen().question.exam->confirmation);
    app.send({{"type", "submit"}});
    app.send({{"type", "confirm-submit"}});
    const ScreenModel screen = app.screen();
    REQUIRE(screen.screen == Screen::Results);
    CHECK(screen.results.score == 1);   // 3,14 right; Lyon wrong
    CHECK(screen.results.rows.size() == 5);
    for (const ButtonModel& button : screen.results.buttons) CHECK(button.id != "review");   // an exam is taken again whole
}

TEST_CASE("exam on screen: a bank that shows the score only shows no answers") {
    const std::string bank =
        bank_json(five_questions, R"({"mode": "exam", "showAfterSubmit": "score", "shuffleQuestions": false})");
    TestApp app(Url{}, false);
    open_exam(app, bank, "en");
    app.send({{"type", "select"}, {"choice", "paris"}});
    app.send({{"type", "submit"}});
    app.send({{"type", "confirm-submit"}});
    const ResultsModel r = app.screen().results;
    REQUIRE(r.present);
    CHECK(r.score == 1);
    CHECK(r.rows.empty());
    CHECK(r.score_only == "This quiz shows the score only, not the answers.");
    CHECK(app.page()["results"]["questions"].empty());
}

TEST_CASE("exam time limit: counted from the start by the wall clock, whatever happens between") {
    const Bank bank = load_valid_bank(exam_bank(R"(, "timeLimitMinutes": 10)"));
    CHECK(bank.settings.time_limit_minutes == 10);
    CHECK(load_valid_bank(bank_to_json(bank)).settings.time_limit_minutes == 10);
    const std::int64_t start = 1'000'000;
    Session session = start_session(bank, 1, SessionOptions{{}, start});
    CHECK(exam_time_left_ms(session, bank, start) == 600'000);
    CHECK(exam_time_left_ms(session, bank, start + 90'500) == 509'500);
    // A reload at any moment: the stored session, read again, has the same time left.
    record_exam_answer(session, bank, 0, Response::choices({"paris"}), start + 100'000);
    const Session reloaded = imquiz::testing::stored_and_read(session);
    CHECK(exam_time_left_ms(reloaded, bank, start + 123'456) == exam_time_left_ms(session, bank, start + 123'456));
    // The tab closed for an hour: the time ran out meanwhile.
    CHECK(exam_time_left_ms(reloaded, bank, start + 3'600'000) == 0);
    // A clock set back before the start: the whole limit, never more; set forward: less.
    CHECK(exam_time_left_ms(session, bank, start - 86'400'000) == 600'000);
    CHECK(exam_time_left_ms(session, bank, start + 599'999) == 1);
    CHECK(exam_time_left_ms(session, bank, start + 600'000) == 0);
    // Practice and exams without a limit have none.
    CHECK_FALSE(exam_time_left_ms(session, load_valid_bank(exam_bank()), start));

    using Catch::Matchers::Contains;
    CHECK_THAT(bank_problems(bank_json(five_questions, R"({"timeLimitMinutes": 5})"))[0],
               Contains("settings.timeLimitMinutes") && Contains("a time limit is for an exam"));
    CHECK_THAT(bank_problems(exam_bank(R"(, "timeLimitMinutes": -1)"))[0], Contains("from 0 (no limit) to 1440 (a day), got -1"));
    CHECK(load_valid_bank(bank_json(five_questions, R"({"timeLimitMinutes": 0})")).settings.time_limit_minutes == 0);
    CHECK_THAT(bank_problems(exam_bank(R"(, "timeLimitMinutes": 2000)"))[0], Contains("got 2000"));
}

TEST_CASE("exam time limit on screen: the countdown, its warnings, and the submit at zero, also after the page was closed") {
    const std::string bank =
        bank_json(five_questions, R"({"mode": "exam", "timeLimitMinutes": 10, "shuffleQuestions": false, "shuffleChoices": false})");
    std::map<std::string, std::string> stored;
    double closed_at = 0;   // the clock when the page was closed (a fresh world starts it again)
    {
        TestApp app(Url{}, false);
        open_exam(app, bank, "en");
        QuestionModel q = app.screen().question;
        CHECK(q.exam->time_left == "Time left: 10:00");
        CHECK(q.exam->time_warning.empty());
        // The loop is woken for the next second, with no input.
        CHECK(memory::world().wake_after_ms > 0);
        CHECK(memory::world().wake_after_ms <= 1001);
        app.send({{"type", "select"}, {"choice", "paris"}});
        memory::world().now_ms += 5 * 60'000 + 500;   // 4:59.5 left
        app.settle();
        q = app.screen().question;
        CHECK(q.exam->time_left == "Time left: 4:59");
        CHECK(q.exam->time_warning == "Less than 5 minutes left.");
        CHECK(app.page()["question"]["exam"]["timeLeftMs"] == 299'500);
        memory::world().now_ms += 4 * 60'000;         // 0:59.5
        app.settle();
        CHECK(app.screen().question.exam->time_warning == "Less than a minute left.");
        CHECK(app.screen().question.exam->time_left == "Time left: 0:59");
        stored = memory::world().storage;
        closed_at = memory::world().now_ms;
    }
    SECTION("the time runs out on the page: submitted as it stands, and said") {
        TestApp app(Url{}, false);
        memory::world().storage = stored;
        memory::world().now_ms = closed_at;
        open_exam(app, bank, "en");
        CHECK(app.screen().question.exam->time_left == "Time left: 0:59");
        memory::world().now_ms = closed_at + 60'000;
        app.settle();
        const ScreenModel screen = app.screen();
        REQUIRE(screen.screen == Screen::Results);
        CHECK(screen.results.score == 1);   // Paris, given before the end
        REQUIRE(screen.notice);
        CHECK(screen.notice->text == "The time was up: your answers were submitted as they stood.");
    }
    SECTION("the page was closed past the end: the exam is submitted as soon as it opens again") {
        TestApp app(Url{}, false);
        memory::world().storage = stored;
        memory::world().now_ms = closed_at + 3'600'000;
        imquiz::testing::boot_with_quiz(app, bank, "en");   // the time ran out while closed: on to the results
        const ScreenModel screen = app.screen();
        REQUIRE(screen.screen == Screen::Results);
        CHECK(screen.results.score == 1);
        CHECK(screen.notice);
    }
}

TEST_CASE("exam attempts: one unless maxAttempts says more, counted at the bank as it is") {
    using Catch::Matchers::Contains;
    const Bank two = load_valid_bank(exam_bank(R"(, "maxAttempts": 2)"));
    CHECK(max_attempts(two) == 2);
    CHECK(load_valid_bank(bank_to_json(two)).settings.max_attempts == 2);
    CHECK(max_attempts(load_valid_bank(exam_bank())) == 1);                          // an exam's default
    CHECK(max_attempts(load_valid_bank(exam_bank(R"(, "maxAttempts": 0)"))) == 0);   // no limit
    CHECK(max_attempts(load_valid_bank(bank_json(five_questions))) == 0);            // practice
    // Raising the limit gives one more attempt: it does not make the earlier ones another quiz's.
    CHECK(bank_fingerprint(two) == bank_fingerprint(load_valid_bank(exam_bank())));
    CHECK_THAT(bank_problems(bank_json(five_questions, R"({"maxAttempts": 2})"))[0],
               Contains("settings.maxAttempts") && Contains("a limit on attempts is for an exam"));
    CHECK_THAT(bank_problems(exam_bank(R"(, "maxAttempts": 51)"))[0],
               Contains("settings.maxAttempts") && Contains("maxAttempts is from 0 (no limit) to 50, got 51"));
    CHECK_THAT(bank_problems(exam_bank(R"(, "maxAttempts": 1.5)"))[0], Contains("settings.maxAttempts"));

    const Session practice = start_session(load_valid_bank(bank_json(five_questions)), 1);
    ProgressRecord record;
    record_finished_attempt(record, practice, load_valid_bank(bank_json(five_questions)), 10);
    Session exam = start_session(two, 2);
    submit_exam(exam, 20);
    record_finished_attempt(record, exam, two, 30);
    CHECK(attempts_at(record, bank_fingerprint(two)) == 1);   // the practice attempt was at another quiz
    REQUIRE(last_attempt_at(record, bank_fingerprint(two)));
    CHECK(last_attempt_at(record, bank_fingerprint(two))->attempt_id == exam.attempt_id);
}

namespace {

std::string card_standing(const TestApp& app) {
    const CatalogModel catalog = app.screen().catalog;
    REQUIRE(catalog.cards.size() == 1);
    return catalog.cards[0].standing;
}

std::vector<std::string> button_ids(const std::vector<ButtonModel>& buttons) {
    std::vector<std::string> ids;
    for (const ButtonModel& button : buttons) ids.push_back(button.id);
    return ids;
}

void submit_with(TestApp& app, const char* choice) {
    REQUIRE(app.screen().screen == Screen::Question);
    memory::world().now_ms += 60'000;   // attempts finish a minute apart: which is the last is known
    app.send({{"type", "select"}, {"choice", choice}});
    app.send({{"type", "submit"}});
    app.send({{"type", "confirm-submit"}});
    REQUIRE(app.screen().screen == Screen::Results);
}

}  // namespace

TEST_CASE("exam attempts on screen: the count on the card and the results, no Retry when none is left, the last results instead") {
    const std::string bank =
        bank_json(five_questions, R"({"mode": "exam", "maxAttempts": 2, "shuffleQuestions": false, "shuffleChoices": false})");
    std::map<std::string, std::string> stored;
    {
        TestApp app(Url{}, false);
        open_exam(app, bank, "en");
        app.send({{"type", "catalog"}});
        CHECK_THAT(card_standing(app), Catch::Matchers::EndsWith("Attempts left: 2 of 2"));
        // Started over, an exam with limited attempts would be an attempt never counted.
        app.send({{"type", "open"}, {"quiz", "sample"}});
        app.send({{"type", "select"}, {"choice", "lyon"}});
        app.send({{"type", "catalog"}});
        CHECK(button_ids(app.screen().catalog.cards[0].buttons) == std::vector<std::string>{"open:sample"});
        app.send({{"type", "start-over"}, {"quiz", "sample"}});
        REQUIRE(app.screen().screen == Screen::Question);
        CHECK(app.screen().question.exam->palette[0].answered);   // the same attempt, resumed

        submit_with(app, "paris");
        ResultsModel r = app.screen().results;
        CHECK_THAT(r.details, Catch::Matchers::EndsWith("Attempt\u00a01\u00a0of\u00a02"));
        CHECK(button_ids(r.buttons) == std::vector<std::string>{"retry", "catalog"});
        app.send({{"type", "retry"}});
        submit_with(app, "lyon");
        r = app.screen().results;
        CHECK_THAT(r.details, Catch::Matchers::EndsWith("Attempt\u00a02\u00a0of\u00a02"));
        CHECK(button_ids(r.buttons) == std::vector<std::string>{"catalog"});
        CHECK(app.page()["results"]["buttons"].size() == 1);
        app.send({{"type", "retry"}});                        // none left: nothing happens
        CHECK(app.screen().screen == Screen::Results);
        CHECK(app.screen().results.attempt_id == r.attempt_id);
        stored = memory::world().storage;
    }
    // The next day, in Russian: the card says so, and the quiz opens on the last results.
    TestApp app(Url{}, false);
    memory::world().storage = stored;
    open_exam_or_results(app, bank, "ru");
    ResultsModel r = app.screen().results;
    REQUIRE(r.present);
    CHECK(r.score == 0);                                     // the second attempt's: Lyon
    CHECK(r.rows.size() == 5);
    CHECK(r.rows[0].your_answer_line == "Ваш ответ: Лион");
    CHECK_THAT(r.details, Catch::Matchers::EndsWith("Попытка\u00a02\u00a0из\u00a02"));
    CHECK(button_ids(r.buttons) == std::vector<std::string>{"catalog"});
    app.send({{"type", "catalog"}});
    CHECK_THAT(card_standing(app), Catch::Matchers::EndsWith("Попыток не осталось"));
    const ButtonModel open = app.screen().catalog.cards[0].buttons[0];
    CHECK(open.label == "К результатам");
    app.press(open);
    CHECK(app.screen().screen == Screen::Results);
    CHECK(app.screen().results.attempt_id == r.attempt_id);

    // The author allows a third: the learner has one more, with the two counted.
    TestApp raised(Url{}, false);
    memory::world().storage = stored;
    open_exam_or_results(raised, bank_json(five_questions, R"({"mode": "exam", "maxAttempts": 3})"), "en");
    CHECK(raised.screen().screen == Screen::Question);
    raised.send({{"type", "catalog"}});
    CHECK_THAT(card_standing(raised), Catch::Matchers::Contains("Attempts left: 1 of 3"));
}

TEST_CASE("exam attempts: an exam without maxAttempts is taken once; maxAttempts 0 as often as wished") {
    {
        TestApp app(Url{}, false);
        open_exam(app, exam_bank(), "en");
        submit_with(app, "paris");
        CHECK_THAT(app.screen().results.details, Catch::Matchers::EndsWith("Attempt\u00a01\u00a0of\u00a01"));
        CHECK(button_ids(app.screen().results.buttons) == std::vector<std::string>{"catalog"});
    }
    TestApp app(Url{}, false);
    open_exam(app, exam_bank(R"(, "maxAttempts": 0)"), "en");
    submit_with(app, "paris");
    CHECK_THAT(app.screen().results.details, !Catch::Matchers::Contains("Attempt"));
    CHECK(button_ids(app.screen().results.buttons) == std::vector<std::string>{"retry", "catalog"});
    app.send({{"type", "catalog"}});
    CHECK(button_ids(app.screen().catalog.cards[0].buttons) == std::vector<std::string>{"open:sample"});
}
