// Authoring (issue 10): Aiken -> bank, from tests/data/import/*.aiken and inline texts.
#include "import_test_support.h"

#include "engine/import/import.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace imquiz;
using imquiz::testing::diagnostic_lines;
using imquiz::testing::import_sample;
using imquiz::testing::only_text;
using Strings = std::vector<std::string>;

TEST_CASE("import_aiken: questions, options and answers", "[import][aiken]") {
    const ImportResult result = import_aiken(import_sample("sample.aiken"), "sample.aiken", {});
    CHECK(diagnostic_lines(result.diagnostics) == Strings{
        "sample.aiken:1:1: warning: missing explanation",
        "sample.aiken:7:1: warning: missing explanation",
        "sample.aiken:13:1: warning: missing explanation",
    });
    REQUIRE(result.bank);
    const Bank& bank = *result.bank;
    CHECK(bank.id == "sample");
    CHECK(only_text(bank.title) == "Sample");
    REQUIRE(bank.questions.size() == 3);

    SECTION("options written \"A.\": single choice, the ANSWER letter is the right one") {
        const Question& question = bank.questions[0];
        CHECK(question.id == "q1");
        CHECK(question.type == QuestionType::SingleChoice);
        CHECK(only_text(question.prompt) == "What is the capital of France?");
        REQUIRE(question.choices.size() == 3);
        CHECK(question.choices[0].id == "paris");
        CHECK(only_text(question.choices[0].text) == "Paris");
        CHECK(question.choices[0].correct);
        CHECK_FALSE(question.choices[1].correct);
        CHECK_FALSE(question.choices[2].correct);
    }
    SECTION("options written \"A)\", and ANSWER directly followed by the next question") {
        const Question& question = bank.questions[1];
        CHECK(question.id == "q2");
        REQUIRE(question.choices.size() == 4);
        CHECK(question.correct_choice_ids() == Strings{"mars"});
    }
    SECTION("a question on two lines; a lowercase \"answer: b\"") {
        const Question& question = bank.questions[2];
        CHECK(only_text(question.prompt) ==
              "Which of these is a mammal? The question text may continue on a second line.");
        CHECK(question.correct_choice_ids() == Strings{"dolphin"});
    }
}

TEST_CASE("import_aiken: malformed questions are reported with their line, and no bank",
          "[import][aiken]") {
    const ImportResult result =
        import_aiken(import_sample("malformed.aiken"), "malformed.aiken", {});
    CHECK_FALSE(result.bank);
    CHECK(diagnostic_lines(result.diagnostics) == Strings{
        "malformed.aiken:1:1: error: the question has no ANSWER line",
        "malformed.aiken:8:1: error: ANSWER: C is not one of the options (A-B)",
        "malformed.aiken:10:1: error: the question needs at least 2 options, has 1",
        "malformed.aiken:14:1: error: option A comes before any question text",
        "malformed.aiken:18:1: error: ANSWER must be one option letter, like \"ANSWER: B\", got "
        "\"AB\"",
        "malformed.aiken:20:1: error: ANSWER line without a question",
        "malformed.aiken:25:1: error: duplicate option letter A",
        "malformed.aiken:28:1: error: the question needs at least 2 options, has 1",
        "malformed.aiken:29:1: error: the text of option A is empty",
        "malformed.aiken:33:1: error: the question has no ANSWER line",
    });
}

TEST_CASE("import_aiken: inline cases", "[import][aiken]") {
    SECTION("option letters with a gap are listed one by one") {
        const ImportResult result =
            import_aiken("Q?\nA. a\nC. c\nANSWER: B\n", "gap.aiken", {});
        CHECK(diagnostic_lines(result.diagnostics) ==
              Strings{"gap.aiken:4:1: error: ANSWER: B is not one of the options (A, C)"});
    }
    SECTION("\"A.text\" without a space is question text, not an option") {
        const ImportResult result =
            import_aiken("A.I. quiz: which is a language?\nA. C++\nB. HTML5 canvas\nANSWER: A\n",
                         "ai.aiken", {});
        REQUIRE(result.bank);
        CHECK(only_text(result.bank->questions[0].prompt) == "A.I. quiz: which is a language?");
        CHECK(result.bank->questions[0].choices[0].id == "c");
    }
    SECTION("CRLF, indentation and a byte order mark") {
        const ImportResult result = import_aiken(
            "\xEF\xBB\xBF  Q?\r\n  A. yes\r\n  B. no\r\n  ANSWER: A\r\n", "crlf.aiken", {});
        REQUIRE(result.bank);
        CHECK(only_text(result.bank->questions[0].choices[1].text) == "no");
    }
    SECTION("an empty file") {
        CHECK(diagnostic_lines(import_aiken("\n\n", "empty.aiken", {}).diagnostics) ==
              Strings{"empty.aiken: error: no questions found"});
    }
    SECTION("hostile input never throws or aborts") {
        for (const std::string& input :
             {std::string(100000, 'A'), std::string(30000, '\n') + "ANSWER:",
              std::string("A. \xC3"), std::string(2000, 'x') + "\nA. a\nB. b\nANSWER: Z"}) {
            const ImportResult result = import_aiken(input, "hostile.aiken", {});
            CHECK_FALSE(result.bank);
        }
    }
}

TEST_CASE("import_aiken: the Aiken examples in docs/authoring.md import without errors",
          "[import][aiken][docs]") {
    const std::vector<std::string> examples = imquiz::testing::markdown_blocks(
        imquiz::testing::read_text_file(std::string(IMQUIZ_SOURCE_DIR) + "/docs/authoring.md"),
        "aiken");
    REQUIRE_FALSE(examples.empty());
    for (const std::string& example : examples) {
        INFO(example);
        const ImportResult result = import_aiken(example, "example.aiken", {});
        CHECK(imquiz::count_errors(result.diagnostics) == 0);
        CHECK(result.bank);
    }
}
