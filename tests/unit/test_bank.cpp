// The bank model: numeric answer ranges and the fingerprint that keys progress to content.
#include "engine_test_support.h"

#include "engine/bank.h"

#include <catch2/catch.hpp>

using namespace imquiz;
using imquiz::testing::bank_json;
using imquiz::testing::five_questions;
using imquiz::testing::load_valid_bank;

namespace {

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

} // namespace

TEST_CASE("question types spelled as in bank files", "[bank]") {
    CHECK(to_string(QuestionType::MultipleChoice) == "multiple_choice");
    CHECK(question_type_from_string("short_text") == QuestionType::ShortText);
    CHECK_FALSE(question_type_from_string("ShortText"));
}

TEST_CASE("numeric answers are inclusive ranges", "[bank]") {
    NumericAnswer answer;
    SECTION("value with tolerance") {
        answer.value = 3.5;
        answer.tolerance = 0.05;
        CHECK(answer.accepts(3.5));
        CHECK(answer.accepts(3.45));   // 3.5 - 0.05 is 3.4499999999999997 in binary
        CHECK(answer.accepts(3.55));
        CHECK_FALSE(answer.accepts(3.56));
        CHECK_FALSE(answer.accepts(3.44));
        CHECK(answer.lowest() == Approx(3.45));
    }
    SECTION("an exact value") {
        answer.value = 0.3;
        CHECK(answer.accepts(0.1 + 0.2));
        CHECK_FALSE(answer.accepts(0.31));
    }
    SECTION("min and max") {
        answer.form = NumericAnswer::Form::Range;
        answer.min = 3;
        answer.max = 4;
        CHECK(answer.accepts(3));
        CHECK(answer.accepts(4));
        CHECK_FALSE(answer.accepts(4.001));
        CHECK_FALSE(answer.accepts(2.999));
    }
    SECTION("never infinity or NaN") {
        answer.form = NumericAnswer::Form::Range;
        answer.min = -1e308;
        answer.max = 1e308;
        CHECK_FALSE(answer.accepts(std::numeric_limits<double>::infinity()));
        CHECK_FALSE(answer.accepts(std::numeric_limits<double>::quiet_NaN()));
    }
}

TEST_CASE("bank fingerprint", "[bank][fingerprint]") {
    const std::string original = bank_json(five_questions);
    const std::string fingerprint = bank_fingerprint(load_valid_bank(original));

    SECTION("16 hex digits, the same on every run and platform") {
        CHECK(fingerprint.size() == 16);
        CHECK(fingerprint.find_first_not_of("0123456789abcdef") == std::string::npos);
        // Pinned: a change here means every learner's attempt in progress is dropped.
        CHECK(fingerprint == bank_fingerprint(load_valid_bank(original)));
        CHECK(fingerprint == "b30d8ab0231c81bf");
    }
    SECTION("kept by edits that do not change scoring") {
        const char* const unchanged[][2] = {
            {"Capital of France?", "What is the capital of France?"},
            {"\"Sample\"", "\"Another title\""},
            {"{\"en\": \"hedgehog\", \"ru\": \"ёж\"}", "{\"en\": \"Hedgehog \", \"ru\": \"Ёж\"}"},
        };
        for (const auto& edit : unchanged) {
            INFO(edit[0] << " -> " << edit[1]);
            CHECK(bank_fingerprint(load_valid_bank(replaced(original, edit[0], edit[1]))) ==
                  fingerprint);
        }
        SECTION("reordering choices and questions, shuffle settings") {
            Bank bank = load_valid_bank(original);
            std::swap(bank.questions[0].choices[0], bank.questions[0].choices[2]);
            std::swap(bank.questions[1], bank.questions[3]);
            bank.settings.shuffle_questions = true;
            bank.settings.pool_size = 3;
            CHECK(bank_fingerprint(bank) == fingerprint);
        }
    }
    SECTION("changed by edits that change scoring") {
        const char* const changed[][2] = {
            {"\"id\": \"capital\"", "\"id\": \"capital-city\""},
            {"{\"id\": \"four\", \"text\": \"4\"", "{\"id\": \"four\", \"text\": \"4\", \"correct\": true"},
            {"\"answer\": false", "\"answer\": true"},
            {"\"tolerance\": 0.005", "\"tolerance\": 0.01"},
            {"\"Erinaceus\"", "\"Erinaceus europaeus\""},
            {"{\"id\": \"nice\", \"text\": \"Nice\"}",
             "{\"id\": \"nice\", \"text\": \"Nice\"}, {\"id\": \"lille\", \"text\": \"Lille\"}"},
        };
        for (const auto& edit : changed) {
            INFO(edit[0] << " -> " << edit[1]);
            const Bank bank = load_valid_bank(replaced(original, edit[0], edit[1]));
            REQUIRE_FALSE(bank.questions.empty());
            CHECK(bank_fingerprint(bank) != fingerprint);
        }
        SECTION("pass mark and partial credit") {
            Bank bank = load_valid_bank(original);
            bank.settings.pass_percent = 71;
            CHECK(bank_fingerprint(bank) != fingerprint);
            bank = load_valid_bank(original);
            bank.settings.partial_credit = true;
            CHECK(bank_fingerprint(bank) != fingerprint);
        }
    }
}

TEST_CASE("find_question by id: indexed, and right after the questions change", "[bank]") {
    Bank bank;
    for (int i = 0; i < 2000; ++i) {
        Question question;
        question.id = "q" + std::to_string(i);
        bank.questions.push_back(question);
    }
    CHECK(bank.find_question("q0") == &bank.questions[0]);
    CHECK(bank.find_question("q1999") == &bank.questions[1999]);
    CHECK(bank.find_question("q2000") == nullptr);
    CHECK(bank.find_question("") == nullptr);

    SECTION("a copy finds its own questions, not the original's") {
        const Bank copy = bank;
        CHECK(copy.find_question("q7") == &copy.questions[7]);
    }
    SECTION("an id edited in place") {
        bank.questions[5].id = "renamed";
        CHECK(bank.find_question("renamed") == &bank.questions[5]);
        CHECK(bank.find_question("q5") == nullptr);
    }
    SECTION("questions added and removed") {
        Question added;
        added.id = "added";
        bank.questions.insert(bank.questions.begin(), added);
        CHECK(bank.find_question("added") == &bank.questions[0]);
        CHECK(bank.find_question("q0") == &bank.questions[1]);
        bank.questions.erase(bank.questions.begin(), bank.questions.begin() + 2);
        CHECK(bank.find_question("q0") == nullptr);
        CHECK(bank.find_question("q1") == &bank.questions[0]);
    }
}
