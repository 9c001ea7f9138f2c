// Practice with hints and tries (bank.h Hint, Settings::max_tries) and score-range feedback
// (Bank::feedback_ranges): how they load and are refused, what they cost, how a try that is not
// right is kept and told, resume through the progress record, and what every rendering is given.
#include "engine/bank_writer.h"
#include "engine/draft.h"
#include "engine/progress.h"
#include "engine/session.h"

#include "app_test_support.h"
#include "engine_test_support.h"

#include <catch2/catch.hpp>

using namespace imquiz;
using namespace imquiz::app;
using imquiz::testing::bank_json;
using imquiz::testing::bank_problems;
using imquiz::testing::load_valid_bank;
using imquiz::testing::TestApp;
using imquiz::testing::Url;

namespace {

// Two hints (a tenth and a quarter of the point), three tries at a third each.
const char* const with_hints = R"([{
  "id": "bubble", "type": "single_choice",
  "prompt": {"en": "Which schedule has the smaller bubble?", "ru": "У какого расписания пузырь меньше?"},
  "explanation": "Interleaving shrinks the bubble by the number of chunks.",
  "hints": [
    {"text": {"en": "Think of chunks per device.", "ru": "Подумайте о числе частей на устройство."}, "cost": 0.1},
    {"text": "More chunks, smaller bubble.", "cost": 0.25}
  ],
  "maxTries": 3,
  "choices": [
    {"id": "gpipe", "text": "GPipe", "feedback": {"en": "GPipe has the full bubble.", "ru": "У GPipe полный пузырь."}},
    {"id": "interleaved", "text": "Interleaved 1F1B", "correct": true},
    {"id": "none", "text": "Neither"}
  ]
}, {
  "id": "plain", "type": "true_false",
  "prompt": "A plain question: one try, no hints.",
  "explanation": "It is true.",
  "answer": true
}])";

const char* const ranges = R"(,
  "feedbackRanges": [
    {"from": 0, "to": 49, "text": {"en": "Read the chapter again.", "ru": "Перечитайте главу."}},
    {"from": 50, "to": 100, "text": "Well done."}
  ]
})";

// with_hints as a bank, with feedback ranges.
std::string hints_bank() {
    std::string json = bank_json(with_hints);
    json.pop_back();  // the closing brace
    while (json.back() == '\n') json.pop_back();
    return json + ranges;
}

Response pick(const char* id) { return Response::choices({id}); }

}  // namespace

TEST_CASE("hints and tries: they load, write back, and count in the fingerprint only where they are") {
    const Bank bank = load_valid_bank(hints_bank());
    REQUIRE(bank.questions.size() == 2);
    const Question& q = bank.questions[0];
    REQUIRE(q.hints.size() == 2);
    CHECK(q.hints[0].text.get("ru", "en") == "Подумайте о числе частей на устройство.");
    CHECK(q.hints[1].cost == 0.25);
    CHECK(q.max_tries == 3);
    CHECK(max_tries(bank, q) == 3);
    CHECK(max_tries(bank, bank.questions[1]) == 1);
    CHECK(try_penalty(bank, q) == Approx(1.0 / 3.0));
    REQUIRE(bank.feedback_ranges.size() == 2);
    CHECK(bank.feedback_range(49.9)->from == 0);   // 49.9% has not reached 50
    CHECK(bank.feedback_range(50)->from == 50);
    CHECK(bank.feedback_range(100)->from == 50);

    const Bank again = load_valid_bank(bank_to_json(bank));
    REQUIRE(again.questions.size() == 2);
    CHECK(again.questions[0].hints.size() == 2);
    CHECK(again.questions[0].max_tries == 3);
    CHECK(again.feedback_ranges.size() == 2);
    CHECK(bank_fingerprint(again) == bank_fingerprint(bank));

    // A bank without any keeps the fingerprint it always had; a cost is part of the key.
    Bank without = bank;
    for (Question& question : without.questions) {
        question.hints.clear();
        question.max_tries.reset();
    }
    const Bank plain = load_valid_bank(bank_json(R"([{"id": "bubble", "type": "single_choice", "prompt": "p", "explanation": "e",
      "choices": [{"id": "gpipe", "text": "a"}, {"id": "interleaved", "text": "b", "correct": true}, {"id": "none", "text": "c"}]},
      {"id": "plain", "type": "true_false", "prompt": "p", "explanation": "e", "answer": true}])"));
    CHECK(bank_fingerprint(without) == bank_fingerprint(plain));
    Bank dearer = bank;
    dearer.questions[0].hints[0].cost = 0.2;
    CHECK(bank_fingerprint(dearer) != bank_fingerprint(bank));
    Bank settings = plain;
    settings.settings.max_tries = 2;
    CHECK(bank_fingerprint(settings) != bank_fingerprint(plain));
}

TEST_CASE("hints and tries: what is wrong with them is said where") {
    const auto one = [](const char* fields) {
        return bank_json(std::string(R"([{"id": "q", "type": "true_false", "prompt": "p", "explanation": "e", "answer": true, )") +
                         fields + "}]");
    };
    using Catch::Matchers::Contains;
    CHECK_THAT(bank_problems(one(R"("hints": [{"cost": 0.1}])"))[0],
               Contains("questions[0].hints[0]") && Contains("missing required field \"text\""));
    CHECK_THAT(bank_problems(one(R"("hints": [{"text": "t", "cost": 1.5}])"))[0],
               Contains("questions[0].hints[0].cost") && Contains("from 0 to 1") && Contains("1.5"));
    CHECK_THAT(bank_problems(one(R"("hints": [{"text": "a", "cost": 0.75}, {"text": "b", "cost": 0.5}])"))[0],
               Contains("questions[0].hints") && Contains("cost 1.25"));
    CHECK_THAT(bank_problems(one(R"("hints": [{"text": "a", "costs": 0.5}])"))[0], Contains("\"costs\""));
    CHECK_THAT(bank_problems(one(R"("hints": "read the book")"))[0], Contains("questions[0].hints"));
    CHECK_THAT(bank_problems(one(R"("maxTries": 0)"))[0], Contains("questions[0].maxTries") && Contains("between 1 and 10, got 0"));
    CHECK_THAT(bank_problems(one(R"("maxTries": 11)"))[0], Contains("got 11"));
    CHECK_THAT(bank_problems(one(R"("tryPenalty": 2)"))[0], Contains("questions[0].tryPenalty"));
    CHECK_THAT(bank_problems(bank_json(R"([{"id": "q", "type": "true_false", "prompt": "p", "explanation": "e", "answer": true}])",
                                       R"({"maxTries": 2.5})"))[0],
               Contains("settings.maxTries"));

    std::string overlapping = bank_json(R"([{"id": "q", "type": "true_false", "prompt": "p", "explanation": "e", "answer": true}])");
    overlapping.pop_back();
    while (overlapping.back() == '\n') overlapping.pop_back();
    const auto with_ranges = [&](const char* list) { return overlapping + ", \"feedbackRanges\": " + list + "}"; };
    CHECK_THAT(bank_problems(with_ranges(R"([{"from": 0, "to": 60, "text": "a"}, {"from": 50, "to": 100, "text": "b"}])"))[0],
               Contains("feedbackRanges[1]") && Contains("overlaps feedbackRanges[0] (0-60%)"));
    CHECK_THAT(bank_problems(with_ranges(R"([{"from": 70, "to": 20, "text": "a"}])"))[0],
               Contains("feedbackRanges[0]") && Contains("from (70) is above to (20)"));
    CHECK_THAT(bank_problems(with_ranges(R"([{"from": 0, "to": 101, "text": "a"}])"))[0],
               Contains("feedbackRanges[0].to") && Contains("got 101"));
    CHECK_THAT(bank_problems(with_ranges(R"([{"from": 0, "to": 100}])"))[0],
               Contains("feedbackRanges[0]") && Contains("missing required field \"text\""));
    // The rest of the bank is still read: one report per problem, not one for all.
    CHECK(bank_problems(with_ranges(R"([{"from": 0, "to": 101, "text": "a"}, {"from": 5, "to": 1, "text": "b"}])")).size() == 2);
}

TEST_CASE("hints and tries: a try that is not right is told without the answer, and costs its share") {
    const Bank bank = load_valid_bank(hints_bank());
    SECTION("right on the first try, no hint: the whole point") {
        Session session = start_session(bank, 1);
        const Feedback feedback = check(session, bank, pick("interleaved"), 10);
        CHECK(feedback.final);
        CHECK(feedback.score == 1.0);
        CHECK(feedback.try_number == 1);
    }
    SECTION("a hint costs its share; hints are shown in order, not past the last, not once answered") {
        Session session = start_session(bank, 1);
        CHECK(reveal_hint(session, bank, 5));
        CHECK(session.questions[0].hints_shown == 1);
        const Feedback feedback = check(session, bank, pick("interleaved"), 10);
        CHECK(feedback.correct);
        CHECK(feedback.score == Approx(0.9));
        CHECK(feedback.hints_used == 1);
        CHECK_FALSE(reveal_hint(session, bank, 11));  // answered
        const Results r = results(session, bank);
        CHECK(r.questions[0].outcome == Outcome::Correct);  // right, even if it cost a tenth
        CHECK(r.questions[0].hints_used == 1);
        Session both = start_session(bank, 1);
        CHECK(reveal_hint(both, bank, 1));
        CHECK(reveal_hint(both, bank, 2));
        CHECK_FALSE(reveal_hint(both, bank, 3));
        CHECK(check(both, bank, pick("interleaved"), 4).score == Approx(0.65));
    }
    SECTION("a wrong try: not final, the picked choice's feedback, no answer; then right on try 2") {
        Session session = start_session(bank, 1);
        const Feedback first = check(session, bank, pick("gpipe"), 10);
        CHECK_FALSE(first.final);
        CHECK(first.problem == InputProblem::None);
        CHECK(first.tries_left == 2);
        CHECK(first.correct_answer.choice_ids.empty());
        CHECK(first.explanation.empty());
        for (const ChoiceFeedback& choice : first.choices) {
            CHECK_FALSE(choice.correct);  // never says which is right
            CHECK(choice.feedback.empty() == (choice.choice_id != "gpipe"));
        }
        CHECK_FALSE(session.questions[0].answer);
        REQUIRE(last_try_feedback(session, bank));
        CHECK(last_try_feedback(session, bank)->tries_left == 2);
        // The same wrong answer again is the same try: nothing more is spent.
        CHECK(check(session, bank, pick("gpipe"), 11).tries_left == 2);
        CHECK(session.questions[0].wrong_tries.size() == 1);
        const Feedback second = check(session, bank, pick("interleaved"), 20);
        CHECK(second.final);
        CHECK(second.try_number == 2);
        CHECK(second.score == Approx(2.0 / 3.0));
        CHECK(results(session, bank).questions[0].tries == 2);
    }
    SECTION("the last try is final whatever it is: the answer is shown and the question scores 0") {
        Bank two = bank;
        two.questions[0].max_tries = 2;
        Session session = start_session(two, 1);
        CHECK_FALSE(check(session, two, pick("gpipe"), 1).final);
        const Feedback last = check(session, two, pick("none"), 2);
        CHECK(last.final);
        CHECK_FALSE(last.correct);
        CHECK(last.score == 0);
        CHECK(last.try_number == 2);
        CHECK(last.correct_answer.choice_ids == std::vector<std::string>{"interleaved"});
        CHECK(results(session, two).questions[0].outcome == Outcome::Wrong);
        CHECK(results(session, two).questions[0].tries == 2);
    }
    SECTION("costs together never go below nothing") {
        CHECK(points_kept(bank, bank.questions[0], 2, 3) == 0.0);
        CHECK(points_kept(bank, bank.questions[0], 0, 2) == Approx(2.0 / 3.0));
        CHECK(points_kept(bank, bank.questions[1], 0, 1) == 1.0);
    }
}

TEST_CASE("hints and tries: partial credit is scored on the last try, times what is kept") {
    const Bank bank = load_valid_bank(bank_json(R"([{"id": "m", "type": "multiple_choice", "prompt": "p", "explanation": "e",
      "maxTries": 2, "tryPenalty": 0.5,
      "choices": [{"id": "a", "text": "a", "correct": true}, {"id": "b", "text": "b", "correct": true}, {"id": "c", "text": "c"}]}])",
                                                R"({"partialCredit": true})"));
    Session session = start_session(bank, 1);
    const Feedback first = check(session, bank, Response::choices({"a"}), 1);
    CHECK_FALSE(first.final);            // half right is not right: another try
    CHECK(first.before_costs == 0.5);
    const Feedback last = check(session, bank, Response::choices({"a", "c"}), 2);
    CHECK(last.final);
    CHECK(last.score == 0);              // (1 right - 1 wrong) / 2 = 0, halved
    Session better = start_session(bank, 1);
    check(better, bank, Response::choices({"c"}), 1);
    CHECK(check(better, bank, Response::choices({"a"}), 2).score == Approx(0.25));  // 0.5 x (1 - 0.5)
}

TEST_CASE("hints and tries: shown hints and wrong tries survive the progress record and resume") {
    const Bank bank = load_valid_bank(hints_bank());
    Session session = start_session(bank, 1);
    reveal_hint(session, bank, 1);
    check(session, bank, pick("gpipe"), 2);
    ProgressRecord record;
    record.bank_id = bank.id;
    record.attempt_in_progress = session;
    const std::string encoded = encode_progress(record);
    CHECK(encoded.find("\"hintsShown\":1") != std::string::npos);
    CHECK(encoded.find("\"wrongTries\":[{\"choiceIds\":[\"gpipe\"]}]") != std::string::npos);
    const ProgressDecodeResult decoded = decode_progress(encoded);
    REQUIRE(decoded.record);
    REQUIRE(decoded.record->attempt_in_progress);
    Session resumed = *decoded.record->attempt_in_progress;
    CHECK(session_matches_bank(resumed, bank));
    CHECK(resumed.questions[0].hints_shown == 1);
    REQUIRE(resumed.questions[0].wrong_tries.size() == 1);
    CHECK(last_try_feedback(resumed, bank)->tries_left == 2);
    CHECK(check(resumed, bank, pick("interleaved"), 3).score == Approx(1 - 0.1 - 1.0 / 3.0));
    // A record that claims more hints than the question has is not resumed.
    Session forged = session;
    forged.questions[0].hints_shown = 3;
    CHECK_FALSE(session_matches_bank(forged, bank));
    // A record without either reads as before, and is written as before.
    ProgressRecord plain;
    plain.bank_id = bank.id;
    plain.attempt_in_progress = start_session(bank, 1);
    CHECK(encode_progress(plain).find("hintsShown") == std::string::npos);
    CHECK(encode_progress(plain).find("wrongTries") == std::string::npos);
}

TEST_CASE("hints and tries: a finished attempt keeps them, so its review says what they cost") {
    const Bank bank = load_valid_bank(hints_bank());
    Session session = start_session(bank, 1);
    reveal_hint(session, bank, 1);
    check(session, bank, pick("gpipe"), 2);
    check(session, bank, pick("interleaved"), 3);
    next(session, 4);
    ProgressRecord record;
    record.bank_id = bank.id;
    record_finished_attempt(record, session, bank, 5);
    const std::string encoded = encode_progress(record);
    CHECK(encoded.find("\"tries\":2,\"hintsUsed\":1") != std::string::npos);
    const ProgressDecodeResult decoded = decode_progress(encoded);
    REQUIRE(decoded.record);
    REQUIRE(decoded.record->finished_attempts.size() == 1);
    const Results again = results_of(decoded.record->finished_attempts[0], bank);
    const Results then = results(session, bank);
    REQUIRE(again.questions.size() == then.questions.size());
    CHECK(again.questions[0].tries == 2);
    CHECK(again.questions[0].hints_used == 1);
    CHECK(again.questions[0].score == Approx(then.questions[0].score));
    CHECK(again.questions[0].correct_answer.choice_ids == then.questions[0].correct_answer.choice_ids);
    CHECK(again.percent == Approx(then.percent));
    CHECK(again.passed == then.passed);
    // A count that cannot be is refused where it is.
    std::string forged = encoded;
    forged.replace(forged.find("\"tries\":2"), 9, "\"tries\":1");
    const ProgressDecodeResult refused = decode_progress(forged);
    REQUIRE_FALSE(refused.problems.empty());
    CHECK_THAT(refused.problems[0], Catch::Matchers::Contains("finished[0].questions[0].tries: expected a count from 2"));
}

namespace {

namespace memory = imquiz::platform::memory;

// The bank in a catalog of its own, so that progress is kept as for any published quiz.
TestApp& open(TestApp& app, const char* language) {
    imquiz::testing::boot_with_quiz(app, hints_bank(), language);
    REQUIRE(app.screen().screen == Screen::Question);
    return app;
}

}  // namespace

TEST_CASE("hints and tries on screen: the hint button, a try told, an edit, a reload, the results") {
    std::map<std::string, std::string> stored;
    {
        TestApp app(Url{}, false);
        open(app, "en");
        QuestionModel q = app.screen().question;
        REQUIRE(q.hint);
        CHECK(q.hint->label == "Show a hint (1/2) · -10%");
        CHECK(q.hint->accessible_name == "Show a hint (1/2) · -10%. Hint 1 of 2, costs 10% of this question's points");
        CHECK(q.tries == "Try 1 of 3");
        CHECK(q.hints.empty());
        CHECK_FALSE(q.try_again);

        app.send({{"type", "hint"}});
        q = app.screen().question;
        REQUIRE(q.hints.size() == 1);
        CHECK(q.hints[0].heading == "Hint 1 of 2");
        CHECK(q.hints[0].text == "Think of chunks per device.");
        CHECK(q.hint->label == "Show a hint (2/2) · -25%");
        CHECK(app.page()["question"]["hints"][0]["text"] == "Think of chunks per device.");

        app.send({{"type", "select"}, {"choice", "gpipe"}});
        app.send({{"type", "check"}});
        q = app.screen().question;
        CHECK_FALSE(q.checked);
        REQUIRE(q.try_again);
        CHECK(q.try_again->word == "Not right yet");
        CHECK(q.try_again->message == "Tries left: 2. Change your answer and check again.");
        CHECK(q.tries == "Try 2 of 3");
        for (const ChoiceModel& choice : q.choices) {
            CHECK_FALSE(choice.correct);  // no mark gives the answer away
            CHECK(choice.feedback == (choice.id == "gpipe" ? "GPipe has the full bubble." : ""));
        }
        CHECK(q.announcement == "Not right yet. GPipe has the full bubble. Tries left: 2. Change your answer and check again.");
        const nlohmann::json page = app.page()["question"];
        CHECK(page["tryAgain"]["tone"] == "wrong");
        CHECK(page["tryAgain"]["announcement"] == q.announcement);
        CHECK(page["tries"] == "Try 2 of 3");

        // A changed answer hides what was said about the old one.
        app.send({{"type", "select"}, {"choice", "none"}});
        q = app.screen().question;
        CHECK_FALSE(q.try_again);
        for (const ChoiceModel& choice : q.choices) CHECK(choice.feedback.empty());
        app.send({{"type", "select"}, {"choice", "gpipe"}});
        CHECK(app.screen().question.try_again);  // back to the answer tried: told again
        stored = memory::world().storage;
    }
    // A reload: the hint, the try and the answer as it was tried are all back.
    TestApp again(Url{}, false);
    memory::world().storage = stored;
    open(again, "ru");
    QuestionModel q = again.screen().question;
    REQUIRE(q.hints.size() == 1);
    CHECK(q.hints[0].heading == "Подсказка 1 из 2");
    CHECK(q.hints[0].text == "Подумайте о числе частей на устройство.");
    REQUIRE(q.try_again);
    CHECK(q.try_again->message == "Осталось попыток: 2. Измените ответ и проверьте снова.");
    CHECK(q.tries == "Попытка 2 из 3");
    bool gpipe_selected = false;
    for (const ChoiceModel& choice : q.choices)
        if (choice.id == "gpipe") gpipe_selected = choice.selected;
    CHECK(gpipe_selected);

    again.send({{"type", "select"}, {"choice", "interleaved"}});
    again.send({{"type", "check"}});
    q = again.screen().question;
    REQUIRE(q.checked);
    CHECK(q.verdict.correct);
    CHECK_FALSE(q.hint);
    CHECK_FALSE(q.try_again);
    CHECK(q.costs == "Подсказок: 1 · Попыток: 2 · Баллы: 0.57 из 1");
    CHECK(again.page()["question"]["feedback"]["costs"] == q.costs);

    again.send({{"type", "next"}});
    again.send({{"type", "select"}, {"choice", "false"}});
    again.send({{"type", "check"}});
    q = again.screen().question;
    CHECK(q.checked);  // one try: the first wrong answer is final
    CHECK(q.tries.empty());
    CHECK(q.costs.empty());
    again.send({{"type", "next"}});
    const ResultsModel r = again.screen().results;
    REQUIRE(r.present);
    CHECK(r.percent == Approx(100 * (1 - 0.1 - 1.0 / 3.0) / 2));  // 28.3%
    CHECK(r.feedback == "Перечитайте главу.");
    CHECK(again.page()["results"]["feedback"] == r.feedback);
    CHECK(r.announcement.find("Перечитайте главу.") != std::string::npos);
    REQUIRE(r.rows.size() == 2);
    CHECK(r.rows[0].costs == "Подсказок: 1 · Попыток: 2 · Баллы: 0.57 из 1");
    CHECK(r.rows[1].costs.empty());
}
