// One attempt: order from the seed, checking answers, feedback, results and retries.
#include "engine_test_support.h"

#include "engine/session.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using namespace imquiz;
using imquiz::testing::bank_json;
using imquiz::testing::five_questions;
using imquiz::testing::load_valid_bank;
using Strings = std::vector<std::string>;

namespace {

// Ten true/false questions q0..q9 and one 6-choice question, with the given settings.
Bank numbered_bank(const std::string& settings) {
    std::string questions = "[";
    for (int i = 0; i < 10; ++i)
        questions += R"({"id": "q)" + std::to_string(i) +
                     R"(", "type": "true_false", "prompt": "p", "explanation": "e", "answer": true},)";
    questions += R"({"id": "letters", "type": "multiple_choice", "prompt": "p", "explanation": "e",
                    "choices": [{"id": "a", "text": "A", "correct": true}, {"id": "b", "text": "B"},
                                {"id": "c", "text": "C"}, {"id": "d", "text": "D"},
                                {"id": "e", "text": "E"}, {"id": "f", "text": "F"}]}])";
    return load_valid_bank(bank_json(questions, settings));
}

Strings question_ids(const Session& session) {
    Strings ids;
    for (const SessionQuestion& slot : session.questions)
        ids.push_back(slot.question_id);
    return ids;
}

const SessionQuestion& slot_of(const Session& session, const std::string& id) {
    for (const SessionQuestion& slot : session.questions)
        if (slot.question_id == id)
            return slot;
    FAIL("no question " << id);
    return session.questions.front();
}

// Moves the session to question `id` (skipping the ones before it).
void go_to(Session& session, const std::string& id) {
    while (!is_finished(session) && session.questions[session.current].question_id != id)
        next(session, 0);
    REQUIRE_FALSE(is_finished(session));
}

SessionOptions at(std::int64_t now_ms) {
    SessionOptions options;
    options.now_ms = now_ms;
    return options;
}

} // namespace

TEST_CASE("question and choice order", "[session]") {
    SECTION("without shuffling: the author's order") {
        const Bank bank = numbered_bank("{}");
        const Session session = start_session(bank, 7);
        CHECK(question_ids(session) ==
              Strings{"q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "letters"});
        CHECK(slot_of(session, "letters").choice_order == Strings{"a", "b", "c", "d", "e", "f"});
        CHECK(slot_of(session, "q0").choice_order.empty());
        CHECK(session.current == 0);
        CHECK(session.bank_id == "sample");
        CHECK(session.bank_fingerprint == bank_fingerprint(bank));
    }
    SECTION("shuffled: a permutation fixed by the seed") {
        const Bank bank = numbered_bank(R"({"shuffleQuestions": true, "shuffleChoices": true})");
        const Session first = start_session(bank, 42);
        const Session again = start_session(bank, 42);
        CHECK(question_ids(first) == question_ids(again));
        CHECK(slot_of(first, "letters").choice_order == slot_of(again, "letters").choice_order);

        Strings sorted = question_ids(first);
        std::sort(sorted.begin(), sorted.end());
        CHECK(sorted == Strings{"letters", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8",
                                "q9"});

        std::set<Strings> orders;
        for (std::uint64_t seed = 0; seed < 20; ++seed)
            orders.insert(question_ids(start_session(bank, seed)));
        CHECK(orders.size() == 20);
    }
    SECTION("regression: pinned orders, so native and wasm builds (and future versions) agree") {
        // splitmix64 + Fisher-Yates over our own stream seeds; std::shuffle would differ between
        // libstdc++ and libc++.
        const Bank bank = numbered_bank(R"({"shuffleQuestions": true, "shuffleChoices": true})");
        const Session session = start_session(bank, 42);
        CHECK(question_ids(session) ==
              Strings{"q0", "q7", "q3", "letters", "q5", "q8", "q6", "q4", "q2", "q9", "q1"});
        CHECK(slot_of(session, "letters").choice_order == Strings{"c", "e", "f", "d", "a", "b"});
        CHECK(session.attempt_id == "9b955bd4a7ab0ff3");
    }
    SECTION("a question's choice order depends on the seed and its id, not its position") {
        const Bank shuffled = numbered_bank(R"({"shuffleQuestions": true, "shuffleChoices": true})");
        const Bank in_order = numbered_bank(R"({"shuffleChoices": true})");
        CHECK(slot_of(start_session(shuffled, 5), "letters").choice_order ==
              slot_of(start_session(in_order, 5), "letters").choice_order);
    }
    SECTION("pool draw") {
        const Bank bank = numbered_bank(R"({"poolSize": 4})");
        const Session session = start_session(bank, 3);
        const Strings drawn = question_ids(session);
        REQUIRE(drawn.size() == 4);
        SECTION("the drawn questions keep the author's order") {
            Strings bank_order;
            for (const Question& question : bank.questions)
                if (std::find(drawn.begin(), drawn.end(), question.id) != drawn.end())
                    bank_order.push_back(question.id);
            CHECK(drawn == bank_order);
        }
        SECTION("the same seed draws the same; other seeds draw other sets") {
            CHECK(question_ids(start_session(bank, 3)) == drawn);
            std::set<Strings> draws;
            for (std::uint64_t seed = 0; seed < 30; ++seed)
                draws.insert(question_ids(start_session(bank, seed)));
            CHECK(draws.size() > 20);
        }
        SECTION("with shuffleQuestions, drawn in random order") {
            const Bank shuffled = numbered_bank(R"({"poolSize": 4, "shuffleQuestions": true})");
            std::set<Strings> orders;
            for (std::uint64_t seed = 0; seed < 30; ++seed) {
                const Strings ids = question_ids(start_session(shuffled, seed));
                CHECK(ids.size() == 4);
                orders.insert(ids);
            }
            CHECK(orders.size() > 20);
        }
        SECTION("only_question_ids: exactly those, no pool draw, unknown ids ignored") {
            SessionOptions options;
            options.only_question_ids = {"q9", "q2", "gone", "q5", "q7", "q1"};
            CHECK(question_ids(start_session(bank, 3, options)) ==
                  Strings{"q1", "q2", "q5", "q7", "q9"});
        }
    }
}

TEST_CASE("checking answers", "[session]") {
    const Bank bank = load_valid_bank(bank_json(five_questions));
    REQUIRE(bank.questions.size() == 5);
    Session session = start_session(bank, 1, at(1000));

    SECTION("single_choice") {
        SECTION("right") {
            const Feedback feedback = check(session, bank, Response::choices({"paris"}), 2000);
            CHECK(feedback.problem == InputProblem::None);
            CHECK(feedback.correct);
            CHECK(feedback.score == 1.0);
            CHECK(feedback.correct_answer.choice_ids == Strings{"paris"});
            CHECK(feedback.explanation.get("ru", "en") == "Париж.");
        }
        SECTION("wrong: the picked choice's feedback is shown") {
            const Feedback feedback = check(session, bank, Response::choices({"lyon"}), 2000);
            CHECK_FALSE(feedback.correct);
            CHECK(feedback.score == 0.0);
            REQUIRE(feedback.choices.size() == 3);
            CHECK(feedback.choices[0].choice_id == "paris");
            CHECK(feedback.choices[0].correct);
            CHECK_FALSE(feedback.choices[0].selected);
            CHECK(feedback.choices[1].selected);
            CHECK(feedback.choices[1].feedback.get("en", "en") == "Second city.");
            CHECK(feedback.choices[2].feedback.empty());
        }
        SECTION("input problems record nothing") {
            CHECK(check(session, bank, Response::choices({}), 2000).problem ==
                  InputProblem::NoChoiceSelected);
            CHECK(check(session, bank, Response::choices({"paris", "lyon"}), 2000).problem ==
                  InputProblem::TooManyChoices);
            CHECK(check(session, bank, Response::choices({"rome"}), 2000).problem ==
                  InputProblem::UnknownChoice);
            CHECK_FALSE(session.questions[0].answer);
            CHECK(check(session, bank, Response::choices({"paris", "paris"}), 2000).correct);
        }
        SECTION("a second check is refused and repeats the recorded feedback") {
            check(session, bank, Response::choices({"lyon"}), 2000);
            const Feedback again = check(session, bank, Response::choices({"paris"}), 3000);
            CHECK(again.problem == InputProblem::AlreadyAnswered);
            CHECK_FALSE(again.correct);
            CHECK(session.questions[0].answer->response == Response::choices({"lyon"}));
        }
    }
    SECTION("multiple_choice") {
        go_to(session, "primes");
        SECTION("all-or-nothing without partialCredit") {
            const Feedback feedback =
                check(session, bank, Response::choices({"two", "three"}), 2000);
            CHECK_FALSE(feedback.correct);
            CHECK(feedback.score == 0.0);
        }
        SECTION("exactly the correct set") {
            CHECK(check(session, bank, Response::choices({"five", "two", "three"}), 2000).correct);
        }
        SECTION("feedback shown on a wrong pick and the missed correct ones") {
            const Feedback feedback = check(session, bank, Response::choices({"two", "four"}), 2000);
            REQUIRE(feedback.choices.size() == 4);
            CHECK(feedback.choices[2].choice_id == "four");
            CHECK(feedback.choices[2].feedback.get("en", "en") == "2 x 2.");
            CHECK(feedback.correct_answer.choice_ids == Strings{"two", "three", "five"});
        }
    }
    SECTION("partial credit: (right picks - wrong picks) / correct choices, at least 0") {
        Bank partial = bank;
        partial.settings.partial_credit = true;
        Session attempt = start_session(partial, 1);
        go_to(attempt, "primes");
        SECTION("two of three") {
            const Feedback feedback = check(attempt, partial, Response::choices({"two", "three"}), 0);
            CHECK_FALSE(feedback.correct);
            CHECK(feedback.score == Approx(2.0 / 3.0));
        }
        SECTION("a wrong pick costs one right pick") {
            CHECK(check(attempt, partial, Response::choices({"two", "three", "four"}), 0).score ==
                  Approx(1.0 / 3.0));
        }
        SECTION("never below zero") {
            CHECK(check(attempt, partial, Response::choices({"four"}), 0).score == 0.0);
        }
    }
    SECTION("true_false") {
        go_to(session, "earth-flat");
        CHECK(check(session, bank, Response::boolean(false), 0).correct);
    }
    SECTION("numeric: '.' or ',' as the decimal separator, inclusive tolerance") {
        go_to(session, "pi");
        SECTION("comma") { CHECK(check(session, bank, Response::typed(" 3,14 "), 0).correct); }
        SECTION("edge of the tolerance") {
            CHECK(check(session, bank, Response::typed("3.145"), 0).correct);
        }
        SECTION("outside") { CHECK_FALSE(check(session, bank, Response::typed("3.146"), 0).correct); }
        SECTION("not a number") {
            CHECK(check(session, bank, Response::typed("pi"), 0).problem ==
                  InputProblem::NotANumber);
            CHECK(check(session, bank, Response::typed("  "), 0).problem ==
                  InputProblem::EmptyText);
        }
    }
    SECTION("short_text: case, spaces and Unicode normalization do not matter") {
        go_to(session, "hedgehog");
        SECTION("another case and spacing") {
            CHECK(check(session, bank, Response::typed("  HEDGEHOG "), 0).correct);
        }
        SECTION("any translation is accepted") {
            CHECK(check(session, bank, Response::typed("ЁЖ"), 0).correct);
        }
        SECTION("ё typed as е + combining diaeresis") {
            CHECK(check(session, bank, Response::typed("е\xCC\x88ж"), 0).correct);
        }
        SECTION("a plain accepted text") {
            CHECK(check(session, bank, Response::typed("erinaceus"), 0).correct);
        }
        SECTION("wrong") {
            const Feedback feedback = check(session, bank, Response::typed("porcupine"), 0);
            CHECK_FALSE(feedback.correct);
            REQUIRE(feedback.correct_answer.accepted_texts.size() == 2);
            CHECK(feedback.correct_answer.accepted_texts[0].get("en", "en") == "hedgehog");
        }
        SECTION("empty") {
            CHECK(check(session, bank, Response::typed(" \t"), 0).problem ==
                  InputProblem::EmptyText);
        }
    }
    SECTION("after the last question") {
        for (int i = 0; i < 5; ++i)
            next(session, 0);
        CHECK(is_finished(session));
        CHECK(current_question(session, bank) == nullptr);
        CHECK(check(session, bank, Response::boolean(true), 0).problem ==
              InputProblem::NoCurrentQuestion);
        next(session, 0);
        CHECK(session.current == 5);
    }
}

TEST_CASE("results", "[session]") {
    const Bank bank = load_valid_bank(bank_json(five_questions));
    Session session = start_session(bank, 9, at(10'000));
    check(session, bank, Response::choices({"paris"}), 15'000);   // right
    next(session, 16'000);
    check(session, bank, Response::choices({"two"}), 20'000);     // wrong
    next(session, 21'000);
    next(session, 22'000);                                         // true_false skipped
    check(session, bank, Response::typed("3,14"), 30'000);        // right
    next(session, 31'000);
    check(session, bank, Response::typed("Hedgehog"), 40'000);    // right
    next(session, 41'000);
    REQUIRE(is_finished(session));

    const Results result = results(session, bank);
    CHECK(result.attempt_id == session.attempt_id);
    CHECK(result.score == 3.0);
    CHECK(result.max_score == 5.0);
    CHECK(result.percent == Approx(60.0));
    CHECK(result.pass_percent == 70);
    CHECK_FALSE(result.passed);
    CHECK(result.started_at_ms == 10'000);
    CHECK(result.duration_ms == 31'000);
    REQUIRE(result.questions.size() == 5);
    CHECK(result.questions[1].outcome == Outcome::Wrong);
    CHECK(result.questions[1].response == Response::choices({"two"}));
    CHECK(result.questions[1].correct_answer.choice_ids == Strings{"two", "three", "five"});
    CHECK(result.questions[2].outcome == Outcome::Skipped);
    CHECK_FALSE(result.questions[2].response);
    CHECK(result.questions[2].correct_answer.true_false == false);
    CHECK(result.questions[3].correct_answer.numeric.value == 3.14);

    SECTION("missed questions: wrong, partial and skipped") {
        CHECK(missed_question_ids(result) == Strings{"primes", "earth-flat"});
    }
    SECTION("retry missed: a fresh attempt at just those") {
        const Session retry = retry_missed(bank, result, 10, 50'000);
        CHECK(question_ids(retry) == Strings{"primes", "earth-flat"});
        CHECK(retry.started_at_ms == 50'000);
        CHECK(retry.attempt_id != session.attempt_id);
        CHECK(answered_count(retry) == 0);
    }
    SECTION("retry all") {
        CHECK(question_ids(retry_all(bank, 10, 50'000)).size() == 5);
    }
    SECTION("nothing missed: an empty attempt, finished from the start") {
        Results perfect = result;
        for (QuestionResult& question : perfect.questions)
            question.outcome = Outcome::Correct;
        const Session retry = retry_missed(bank, perfect, 10, 0);
        CHECK(retry.questions.empty());
        CHECK(is_finished(retry));
        const Results empty = results(retry, bank);
        CHECK(empty.percent == 0.0);
        CHECK_FALSE(empty.passed);
    }
    SECTION("the pass mark is inclusive (7 of 10 passes 70%)") {
        const Bank ten = numbered_bank("{}");
        Session attempt = start_session(ten, 1);
        for (int i = 0; i < 10; ++i) {
            check(attempt, ten, Response::boolean(i < 7), 0);
            next(attempt, 0);
        }
        const Results seven = results(attempt, ten);
        CHECK(seven.percent == Approx(100.0 * 7 / 11));
        CHECK_FALSE(seven.passed);   // 7 of 11: the skipped "letters" question counts
        Bank pass_63 = ten;
        pass_63.settings.pass_percent = 63;
        CHECK(results(attempt, pass_63).passed);
    }
    SECTION("outcome names") {
        CHECK(to_string(Outcome::Partial) == "partial");
        CHECK(outcome_from_string("skipped") == Outcome::Skipped);
        CHECK_FALSE(outcome_from_string("Skipped"));
    }
}

TEST_CASE("time is passed in; a reload does not count the time away", "[session]") {
    const Bank bank = load_valid_bank(bank_json(five_questions));
    Session session = start_session(bank, 1, at(1'000));
    check(session, bank, Response::choices({"paris"}), 4'000);
    CHECK(session.elapsed_ms == 3'000);

    SECTION("resume restarts the clock") {
        resume_session(session, 90'000'000);   // the next day
        next(session, 90'002'000);
        CHECK(session.elapsed_ms == 5'000);
    }
    SECTION("regression: absurd clock readings from a tampered record saturate, never overflow") {
        session.last_activity_ms = INT64_MIN + 1;
        next(session, INT64_MAX);
        CHECK(session.elapsed_ms == 3'000);   // the gap itself overflows: not counted
        session.last_activity_ms = 0;
        session.elapsed_ms = INT64_MAX - 10;
        next(session, 1'000);
        CHECK(session.elapsed_ms == INT64_MAX);
    }
    SECTION("a clock that goes back adds nothing") {
        next(session, 2'000);
        CHECK(session.elapsed_ms == 3'000);
        next(session, 2'500);
        CHECK(session.elapsed_ms == 3'500);
    }
}

TEST_CASE("resuming a saved session", "[session]") {
    const Bank bank = load_valid_bank(bank_json(five_questions));
    Session session = start_session(bank, 1);
    check(session, bank, Response::choices({"lyon"}), 0);

    SECTION("the feedback of a checked question can be shown again") {
        const auto feedback = current_feedback(session, bank);
        REQUIRE(feedback);
        CHECK_FALSE(feedback->correct);
        CHECK(feedback->choices[1].selected);
        next(session, 0);
        CHECK_FALSE(current_feedback(session, bank));
    }
    SECTION("it matches the bank it was started on") {
        CHECK(session_matches_bank(session, bank));
    }
    SECTION("not after an edit that changes scoring") {
        Bank edited = bank;
        edited.questions[2].true_false_answer = true;
        CHECK_FALSE(session_matches_bank(session, edited));
    }
    SECTION("not when a question is gone, even with a matching fingerprint") {
        Session tampered = session;
        tampered.questions[1].question_id = "gone";
        CHECK_FALSE(session_matches_bank(tampered, bank));
        tampered = session;
        tampered.questions[0].choice_order.pop_back();
        CHECK_FALSE(session_matches_bank(tampered, bank));
        tampered = session;
        tampered.current = 99;
        CHECK_FALSE(session_matches_bank(tampered, bank));
    }
    SECTION("but a reworded bank is the same bank") {
        Bank reworded = bank;
        reworded.questions[0].prompt = LocalizedText::same_in_all_languages("Which city?");
        CHECK(session_matches_bank(session, reworded));
    }
    SECTION("a fingerprint the caller has at hand is the one compared and kept") {
        // The app hashes a bank once when it is read, not again for each attempt.
        CHECK(session_matches_bank(session, bank, bank_fingerprint(bank)));
        CHECK_FALSE(session_matches_bank(session, bank, "another-bank-version"));
        SessionOptions options;
        options.bank_fingerprint = "given-fingerprint";
        CHECK(start_session(bank, 7, options).bank_fingerprint == "given-fingerprint");
        CHECK(start_session(bank, 7).bank_fingerprint == bank_fingerprint(bank));
    }
}

TEST_CASE("parse_number", "[session][numbers]") {
    const std::pair<const char*, double> valid[] = {
        {"3.5", 3.5},   {"3,5", 3.5},      {" -2 ", -2},     {"+7", 7},
        {"0.001", 0.001}, {".5", 0.5},     {",25", 0.25},    {"5.", 5},
        {"1e3", 1000},  {"2,5E-2", 0.025}, {"0", 0},         {"007", 7},
        {"3.55", 3.55}, {"\xE2\x88\x92" "4", -4},   // U+2212 MINUS SIGN
    };
    for (const auto& [text, expected] : valid) {
        INFO(text);
        const auto number = parse_number(text);
        REQUIRE(number);
        CHECK(*number == expected);
    }
    SECTION("more than 19 digits: the magnitude is kept, precision may round") {
        CHECK(*parse_number("123456789012345678901234") == Approx(1.2345678901234568e23));
        CHECK(*parse_number("0.000000000000000000000000012345") == Approx(1.2345e-26));
    }
    for (const char* text : {"", " ", "abc", "1,000.5", "1.2.3", "1 000", "--1", "1e", "e5", ".",
                             "3.5m", "0x10", "1e999", "nan", "inf"}) {
        INFO(text);
        CHECK_FALSE(parse_number(text));
    }
}
