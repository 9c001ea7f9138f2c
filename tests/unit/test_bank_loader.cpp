// Reading bank and catalog files: what a valid file becomes, and how broken JSON and hostile
// inputs are reported (never a throw or an abort).
#include "engine_test_support.h"

#include "engine/bank_loader.h"

#include <catch2/catch.hpp>

#include <string>

using namespace imquiz;
using imquiz::testing::bank_json;
using imquiz::testing::bank_problems;
using imquiz::testing::five_questions;
using Strings = std::vector<std::string>;

TEST_CASE("loading a valid bank", "[loader]") {
    const BankLoadResult result = load_bank(
        bank_json(five_questions, R"({"shuffleChoices": true, "poolSize": 4, "passPercent": 80,
                                      "partialCredit": true})"),
        "sample.json");
    REQUIRE(result.diagnostics.empty());
    REQUIRE(result.bank);
    const Bank& bank = *result.bank;

    SECTION("bank fields") {
        CHECK(bank.id == "sample");
        CHECK(bank.title.get("ru", "en") == "Пример");
        CHECK(bank.description.empty());
        CHECK(bank.languages == Strings{"en", "ru"});
        CHECK(bank.default_language == "en");
        CHECK(bank.text(bank.title, "fr") == "Sample");
    }
    SECTION("settings") {
        CHECK(bank.settings.shuffle_choices);
        CHECK_FALSE(bank.settings.shuffle_questions);
        CHECK(bank.settings.pool_size == 4);
        CHECK(bank.settings.pass_percent == 80);
        CHECK(bank.settings.partial_credit);
    }
    SECTION("one question of each type") {
        REQUIRE(bank.questions.size() == 5);
        SECTION("single_choice") {
            const Question& question = bank.questions[0];
            CHECK(question.id == "capital");
            CHECK(question.type == QuestionType::SingleChoice);
            REQUIRE(question.choices.size() == 3);
            CHECK(question.choices[0].correct);
            CHECK_FALSE(question.choices[1].correct);   // "correct" defaults to false
            CHECK(question.choices[1].feedback.get("ru", "en") == "Второй город.");
            CHECK(question.choices[2].text.is_plain());
            CHECK(question.correct_choice_ids() == Strings{"paris"});
        }
        SECTION("multiple_choice") {
            CHECK(bank.questions[1].correct_choice_ids() == Strings{"two", "three", "five"});
        }
        SECTION("true_false") {
            CHECK(bank.questions[2].type == QuestionType::TrueFalse);
            CHECK_FALSE(bank.questions[2].true_false_answer);
        }
        SECTION("numeric") {
            const Question& question = bank.questions[3];
            CHECK(question.numeric_answer.form == NumericAnswer::Form::ValueWithTolerance);
            CHECK(question.numeric_answer.value == 3.14);
            CHECK(question.numeric_answer.tolerance == 0.005);
            CHECK(question.unit.get("ru", "en") == "нет");
        }
        SECTION("short_text") {
            const Question& question = bank.questions[4];
            REQUIRE(question.accepted_texts.size() == 2);
            CHECK(question.accepted_texts[1].plain() == "Erinaceus");
            CHECK(question.tags == Strings{"animals"});
        }
    }
    SECTION("finders") {
        CHECK(bank.find_question("pi") == &bank.questions[3]);
        CHECK(bank.find_question("nope") == nullptr);
        CHECK(bank.questions[0].find_choice("lyon") == &bank.questions[0].choices[1]);
        CHECK(bank.questions[0].find_choice("nope") == nullptr);
    }
}

TEST_CASE("settings default when absent", "[loader]") {
    std::string json = bank_json(R"([{"id": "q", "type": "true_false", "prompt": "p",
                                      "explanation": "e", "answer": true}])");
    const BankLoadResult result = load_bank(json, "b.json");
    REQUIRE(result.bank);
    CHECK_FALSE(result.bank->settings.shuffle_choices);
    CHECK_FALSE(result.bank->settings.shuffle_questions);
    CHECK(result.bank->settings.pool_size == 0);
    CHECK(result.bank->settings.pass_percent == 70);
    CHECK_FALSE(result.bank->settings.partial_credit);
}

TEST_CASE("malformed JSON is reported with line and column", "[loader]") {
    SECTION("a bad literal") {
        CHECK(bank_problems("{\n  \"format\": tru\n}") ==
              Strings{"b.json:2:16: error: syntax error while parsing value - invalid literal; "
                      "last read: '\"format\": tru<U+000A>'"});
    }
    SECTION("a missing comma") {
        CHECK(bank_problems("{\"a\": 1 \"b\": 2}") ==
              Strings{"b.json:1:11: error: syntax error while parsing object - unexpected string "
                      "literal; expected '}'"});
    }
    SECTION("truncated") {
        // At the end: one past the last character.
        CHECK(bank_problems("{\"questions\": [") ==
              Strings{"b.json:1:16: error: syntax error while parsing value - unexpected end of "
                      "input; expected '[', '{', or a literal"});
    }
    SECTION("text after the document") {
        CHECK(bank_problems("{} {}") ==
              Strings{"b.json:1:4: error: syntax error while parsing value - unexpected '{'; "
                      "expected end of input"});
    }
    SECTION("an empty file") {
        CHECK(bank_problems("") == Strings{"b.json: error: file is empty"});
        CHECK(bank_problems(" \n\t") == Strings{"b.json: error: file is empty"});
    }
    SECTION("invalid UTF-8 in a string: quoted back as U+FFFD, never as raw bytes") {
        // Latin-1 "é" (0xE9) starts a 3-byte sequence that the quote does not continue.
        CHECK(bank_problems("{\"title\": \"caf\xE9\"}") ==
              Strings{"b.json:1:16: error: syntax error while parsing value - invalid string: "
                      "ill-formed UTF-8 byte; last read: '\"caf\xEF\xBF\xBD\"'"});
    }
    SECTION("the column counts characters, not bytes") {
        const auto problems = bank_problems("{\"title\": \"Пример\", x}");
        REQUIRE(problems.size() == 1);
        CHECK(problems[0].rfind("b.json:1:21: error: ", 0) == 0);
    }
}

TEST_CASE("a UTF-8 byte order mark is accepted silently", "[loader]") {
    const std::string json = "\xEF\xBB\xBF" + bank_json(five_questions);
    const BankLoadResult result = load_bank(json, "b.json");
    CHECK(result.diagnostics.empty());
    CHECK(result.bank);
}

TEST_CASE("limits", "[loader][limits]") {
    SECTION("file size: checked before parsing") {
        LoadLimits limits;
        limits.max_file_bytes = 10;
        CHECK(bank_problems(bank_json(five_questions), limits) ==
              Strings{"b.json: error: file is too large: " +
                      std::to_string(bank_json(five_questions).size()) +
                      " bytes (the limit is 10)"});
    }
    SECTION("nesting depth: a million [ stop at the limit, without deep recursion") {
        const std::string deep(1000000, '[');
        CHECK(bank_problems(deep) ==
              Strings{"b.json:1:65: error: nesting is deeper than the limit of 64 levels"});
    }
    SECTION("nesting depth: deep objects, on a later line") {
        std::string deep = "\n";
        for (int i = 0; i < 70; ++i)
            deep += "{\"a\":";
        CHECK(bank_problems(deep) ==
              Strings{"b.json:2:321: error: nesting is deeper than the limit of 64 levels"});
    }
    SECTION("nesting at the limit is fine for the parser") {
        LoadLimits limits;
        limits.max_nesting_depth = 3;
        CHECK(bank_problems("[[[]]]", limits) ==
              Strings{"b.json: error: expected an object, got an array"});
        CHECK(bank_problems("[[[[]]]]", limits) ==
              Strings{"b.json:1:4: error: nesting is deeper than the limit of 3 levels"});
    }
    SECTION("text length: every string and key, reported with its path") {
        LoadLimits limits;
        limits.max_text_bytes = 16;   // the longest key of a valid bank is 15 bytes
        const auto problems = bank_problems(bank_json(R"([{"id": "q", "type": "true_false",
            "prompt": "a prompt that is long", "explanation": "e", "answer": true,
            "averyveryverylongkey": 1}])"), limits);
        CHECK(problems == Strings{
            "b.json:questions[0].prompt: error: text is too long: 21 bytes (the limit is 16)",
            "b.json:questions[0]: error: field name is too long: 20 bytes (the limit is 16)",
            "b.json:questions[0]: error: unknown field \"averyveryverylongkey\""});
    }
    SECTION("number of questions") {
        LoadLimits limits;
        limits.max_questions = 2;
        const std::string q = R"({"id": "q1", "type": "true_false", "prompt": "p",
                                  "explanation": "e", "answer": true})";
        std::string two = "[" + q + "," + q + "]";
        std::string three = "[" + q + "," + q + "," + q + "]";
        // Refused as soon as the reader meets one question too many: the rest of the file is
        // not read (a 15 MB bank of 100,000 questions took 194 MB of wasm memory to refuse), so
        // how many there are is not known, nor what else is wrong with them.
        CHECK(bank_problems(bank_json(three), limits) ==
              Strings{"b.json:questions: error: more than 2 questions (the limit is 2)"});
        CHECK(bank_problems(bank_json(two), limits) ==
              Strings{"b.json:questions[1].id: error: duplicate question id \"q1\" (also at "
                      "questions[0])"});
        SECTION("only the top-level questions count") {
            const std::string bank = bank_json(two);
            std::string noted = bank;
            noted.insert(noted.rfind('}'), R"(, "notes": {"questions": [1, 2, 3]})");
            CHECK(bank_problems(noted, limits) ==
                  Strings{"b.json:notes: error: expected a string, got an object",
                          "b.json:questions[1].id: error: duplicate question id \"q1\" (also at "
                          "questions[0])"});
        }
    }
    SECTION("choices per question") {
        std::string choices = "[";
        for (int i = 0; i < 27; ++i)
            choices += std::string(i ? "," : "") + R"({"id": "c)" + std::to_string(i) +
                       R"(", "text": "t", "correct": )" + (i == 0 ? "true" : "false") + "}";
        choices += "]";
        CHECK(bank_problems(bank_json(R"([{"id": "q", "type": "single_choice", "prompt": "p",
                                           "explanation": "e", "choices": )" + choices + "}]")) ==
              Strings{"b.json:questions[0].choices: error: too many choices: 27 (the limit is "
                      "26)"});
    }
    SECTION("number overflow") {
        const auto problems = bank_problems(bank_json(R"([{"id": "q", "type": "numeric",
            "prompt": "p", "explanation": "e", "answer": {"value": 1e999}}])"));
        REQUIRE(problems.size() == 1);
        CHECK(problems[0] == "b.json:10:72: error: number overflow parsing '1e999'");
    }
    SECTION("the number of reported problems is capped") {
        LoadLimits limits;
        limits.max_diagnostics = 5;
        std::string many = "{";
        for (int i = 0; i < 100; ++i)
            many += "\"unknown" + std::to_string(i) + "\": 1,";
        many += "\"format\": \"imquiz-bank\", \"version\": 1}";
        const auto problems = bank_problems(many, limits);
        REQUIRE(problems.size() == 5);
        CHECK(problems[0] == "b.json: error: unknown field \"unknown0\"");
        CHECK(problems[4] == "b.json: error: too many problems: only the first 4 are reported");
    }
    SECTION("warnings take half the list, the rest are counted, and the bank still loads") {
        // Regression: 600 questions without an explanation made a bank "too many problems".
        LoadLimits limits;
        limits.max_diagnostics = 10;
        std::string questions = "[";
        for (int i = 0; i < 600; ++i)
            questions += std::string(i ? "," : "") + R"({"id": "q)" + std::to_string(i) +
                         R"(", "type": "true_false", "prompt": "p", "answer": true})";
        const auto problems = bank_problems(bank_json(questions + "]"), limits);
        REQUIRE(problems.size() == 6);
        CHECK(problems[0] == "b.json:questions[0]: warning: missing explanation");
        CHECK(problems[4] == "b.json:questions[4]: warning: missing explanation");
        CHECK(problems[5] == "b.json: warning: and 595 more warnings (not listed)");
        CHECK(load_bank(bank_json(questions + "]"), "b.json", limits).bank);
    }
}

TEST_CASE("duplicate keys are an error; the first value is kept", "[loader]") {
    const std::string json = bank_json(R"([{"id": "q", "type": "true_false", "prompt": "p",
        "explanation": "e", "answer": true, "answer": {"deep": [1, {"answer": 2}]}}])");
    CHECK(bank_problems(json) ==
          Strings{"b.json:questions[0]: error: duplicate field \"answer\""});
}

TEST_CASE("loading a catalog", "[loader][catalog]") {
    SECTION("valid") {
        const CatalogLoadResult result = load_catalog(R"({
          "format": "imquiz-catalog", "version": 1,
          "banks": [{"id": "data-parallelism", "file": "data-parallelism.json"},
                    {"id": "pipelines", "file": "more/pipelines.json",
                     "formulas": "more/pipelines.formulas.json"}]})",
                                                      "index.json");
        CHECK(result.diagnostics.empty());
        REQUIRE(result.catalog);
        REQUIRE(result.catalog->banks.size() == 2);
        CHECK(result.catalog->banks[1].id == "pipelines");
        CHECK(result.catalog->banks[1].file == "more/pipelines.json");
        CHECK(result.catalog->banks[0].formulas.empty());
        CHECK(result.catalog->banks[1].formulas == "more/pipelines.formulas.json");
    }
    SECTION("every problem") {
        const CatalogLoadResult result = load_catalog(R"({
          "format": "imquiz-catalog", "version": 1, "bank": 1,
          "banks": [{"id": "a", "file": "a.json"},
                    {"id": "a", "file": "../secret.json"},
                    {"id": "B", "file": "/etc/passwd"},
                    {"id": "c", "file": "a.json", "title": "x"},
                    {"id": "d", "file": "https://example.com/d.json"},
                    {"id": "e", "file": "e.txt"},
                    "f",
                    {"id": "g", "file": "g.json", "formulas": "../g.formulas.json"},
                    {"id": "h", "file": "h.json", "formulas": 1}]})",
                                                      "index.json");
        CHECK_FALSE(result.catalog);
        CHECK(testing::formatted(result.diagnostics) == Strings{
            "index.json: error: unknown field \"bank\" (did you mean \"banks\"?)",
            "index.json:banks[1].id: error: duplicate bank id \"a\" (also at banks[0])",
            "index.json:banks[1].file: error: file must be a relative path to a .json file inside "
            "the catalog's folder, like \"data-parallelism.json\", got \"../secret.json\"",
            "index.json:banks[2].id: error: invalid id \"B\": use lowercase letters, digits and "
            "single hyphens, like \"data-parallelism\"",
            "index.json:banks[2].file: error: file must be a relative path to a .json file inside "
            "the catalog's folder, like \"data-parallelism.json\", got \"/etc/passwd\"",
            "index.json:banks[3]: error: unknown field \"title\"",
            "index.json:banks[3].file: error: duplicate file \"a.json\" (also at banks[0])",
            "index.json:banks[4].file: error: file must be a relative path to a .json file inside "
            "the catalog's folder, like \"data-parallelism.json\", got "
            "\"https://example.com/d.json\"",
            "index.json:banks[5].file: error: file must be a relative path to a .json file inside "
            "the catalog's folder, like \"data-parallelism.json\", got \"e.txt\"",
            "index.json:banks[6]: error: expected an object, got a string",
            "index.json:banks[7].formulas: error: formulas must be a relative path to a .json file "
            "inside the catalog's folder, like \"data-parallelism.formulas.json\", got "
            "\"../g.formulas.json\"",
            "index.json:banks[8].formulas: error: expected a string, got a number"});
    }
    SECTION("wrong format and version") {
        CHECK(testing::formatted(load_catalog(R"({"format": "imquiz-bank", "version": 1})",
                                              "index.json")
                                     .diagnostics) ==
              Strings{"index.json:format: error: format must be \"imquiz-catalog\", got "
                      "\"imquiz-bank\""});
        CHECK(testing::formatted(load_catalog(R"({"format": "imquiz-catalog", "version": 2,
                                                  "banks": []})",
                                              "index.json")
                                     .diagnostics) ==
              Strings{"index.json:version: error: unsupported catalog version 2: this ImQuiz "
                      "reads version 1"});
        CHECK(testing::formatted(load_catalog(R"({"format": "imquiz-catalog", "version": 1,
                                                  "banks": []})",
                                              "index.json")
                                     .diagnostics) ==
              Strings{"index.json:banks: error: a catalog needs at least one bank"});
    }
}

TEST_CASE("document kind", "[loader]") {
    CHECK(detect_document_kind(bank_json(five_questions)) == DocumentKind::Bank);
    CHECK(detect_document_kind(R"({"format": "imquiz-catalog"})") == DocumentKind::Catalog);
    CHECK(detect_document_kind(R"({"format": 3})") == DocumentKind::Unknown);
    CHECK(detect_document_kind("[") == DocumentKind::Unknown);

    SECTION("validate_document picks the right checks") {
        CHECK(testing::formatted(validate_document(R"({"format": "imquiz-catalog",
                                   "version": 1, "banks": [{"id": "a"}]})", "x.json")) ==
              Strings{"x.json:banks[0]: error: missing required field \"file\""});
        CHECK(testing::formatted(validate_document("{}", "x.json")).front() ==
              "x.json: error: missing required field \"format\"");
    }
}
