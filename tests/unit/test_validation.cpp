// Bank validation: every problem at once, each with file, JSON path and a plain message.
#include "engine_test_support.h"

#include <catch2/catch.hpp>

using namespace imquiz;
using imquiz::testing::bank_json;
using imquiz::testing::bank_problems;
using Strings = std::vector<std::string>;

namespace {

// A bank whose only question is `question` (a JSON object).
std::string with_question(const std::string& question) {
    return bank_json("[" + question + "]");
}

} // namespace

TEST_CASE("the bank header", "[validation]") {
    SECTION("not an object") {
        CHECK(bank_problems("[]") == Strings{"b.json: error: expected an object, got an array"});
        CHECK(bank_problems("\"x\"") == Strings{"b.json: error: expected an object, got a string"});
    }
    SECTION("unsupported version: nothing else is reported, it would be noise") {
        CHECK(bank_problems(R"({"format": "imquiz-bank", "version": 2, "questionz": 1})") ==
              Strings{"b.json:version: error: unsupported bank version 2: this ImQuiz reads "
                      "version 1"});
    }
    SECTION("another kind of file") {
        CHECK(bank_problems(R"({"format": "imquiz-catalog", "version": 1, "banks": []})") ==
              Strings{"b.json:format: error: format must be \"imquiz-bank\", got "
                      "\"imquiz-catalog\""});
    }
    SECTION("an empty object: every required field") {
        CHECK(bank_problems("{}") == Strings{
            "b.json: error: missing required field \"format\"",
            "b.json: error: missing required field \"version\"",
            "b.json: error: missing required field \"id\"",
            "b.json: error: missing required field \"languages\"",
            "b.json: error: missing required field \"defaultLanguage\"",
            "b.json: error: missing required field \"title\"",
            "b.json: error: missing required field \"questions\""});
    }
    SECTION("wrong types") {
        CHECK(bank_problems(R"({"format": 1, "version": "1", "id": 5, "languages": "en",
                                "defaultLanguage": null, "title": [], "notes": 3,
                                "settings": [], "questions": {}})") ==
              Strings{
                  "b.json:format: error: expected a string, got a number",
                  "b.json:version: error: expected a whole number, got a string",
                  "b.json:id: error: expected a string, got a number",
                  "b.json:languages: error: expected an array, got a string",
                  "b.json:defaultLanguage: error: expected a string, got null",
                  "b.json:title: error: expected a text (a string, or an object of "
                  "translations), got an array",
                  "b.json:notes: error: expected a string, got a number",
                  "b.json:settings: error: expected an object, got an array",
                  "b.json:questions: error: expected an array, got an object"});
    }
    SECTION("version 1.0 is version 1; 1.5 is not a version") {
        std::string json = with_question(R"({"id": "q", "type": "true_false", "prompt": "p",
                                             "explanation": "e", "answer": true})");
        CHECK(bank_problems(json.replace(json.find("\"version\": 1"), 12, "\"version\": 1.0"))
                  .empty());
        CHECK(bank_problems(R"({"format": "imquiz-bank", "version": 1.5})").front() ==
              "b.json:version: error: expected a whole number, got 1.5");
    }
    SECTION("unknown fields, with the closest known name when one is close") {
        std::string json = with_question(R"({"id": "q", "type": "true_false", "prompt": "p",
                                             "explanation": "e", "answer": true})");
        json.insert(1, R"("tittle": "x", "color": "red", "$schema": "./schema.json", )");
        CHECK(bank_problems(json) ==
              Strings{"b.json: error: unknown field \"tittle\" (did you mean \"title\"?)",
                      "b.json: error: unknown field \"color\""});
    }
    SECTION("notes are free text for authors") {
        std::string json = with_question(R"({"id": "q", "type": "true_false", "prompt": "p",
                                             "explanation": "e", "answer": true})");
        json.insert(1, R"("notes": "reviewed 2024-05; ask Ana about q3", )");
        const BankLoadResult result = load_bank(json, "b.json");
        REQUIRE(result.bank);
        CHECK(result.bank->notes == "reviewed 2024-05; ask Ana about q3");
    }
}

TEST_CASE("ids", "[validation]") {
    for (const char* bad : {"Q1", "q 1", "q_1", "-q", "q-", "q--1", "", "ё"}) {
        INFO(bad);
        CHECK(bank_problems(with_question(std::string(R"({"id": ")") + bad + R"(",
                  "type": "true_false", "prompt": "p", "explanation": "e", "answer": true})")) ==
              Strings{std::string("b.json:questions[0].id: error: invalid id \"") + bad +
                      "\": use lowercase letters, digits and single hyphens, like "
                      "\"replica-contents\""});
    }
    CHECK(bank_problems(with_question(R"({"id": ")" + std::string(65, 'a') + R"(",
              "type": "true_false", "prompt": "p", "explanation": "e", "answer": true})")) ==
          Strings{"b.json:questions[0].id: error: id is longer than 64 characters"});
    CHECK(bank_problems(with_question(R"({"id": ")" + std::string(64, 'a') + R"(",
              "type": "true_false", "prompt": "p", "explanation": "e", "answer": true})"))
              .empty());
}

TEST_CASE("languages and translations", "[validation]") {
    const std::string question = R"([{"id": "q", "type": "true_false", "prompt": "p",
                                       "explanation": "e", "answer": true}])";
    const auto header = [&](const std::string& languages, const std::string& default_language,
                            const std::string& title) {
        return R"({"format": "imquiz-bank", "version": 1, "id": "b", "languages": )" + languages +
               R"(, "defaultLanguage": )" + default_language + R"(, "title": )" + title +
               R"(, "questions": )" + question + "}";
    };
    SECTION("bad codes, duplicates, default not declared") {
        CHECK(bank_problems(header(R"(["en", "EN", "en", "pt-BR"])", R"("fr")", R"("t")")) ==
              Strings{"b.json:languages[1]: error: invalid language code \"EN\": use 2-3 "
                      "lowercase letters, optionally with a region, like \"en\" or \"pt-BR\"",
                      "b.json:languages[2]: error: duplicate language \"en\""});
        CHECK(bank_problems(header(R"(["en", "pt-BR"])", R"("fr")", R"("t")")) ==
              Strings{"b.json:defaultLanguage: error: defaultLanguage \"fr\" is not one of "
                      "languages"});
        CHECK(bank_problems(header("[]", R"("en")", R"("t")")) ==
              Strings{"b.json:languages: error: languages must list at least one language"});
    }
    SECTION("translations: undeclared and invalid languages, empty texts") {
        CHECK(bank_problems(header(R"(["en", "ru"])", R"("en")",
                                   R"({"en": "T", "fr": "T", "RU": "T", "ru": " "})")) ==
              Strings{"b.json:title.fr: error: language \"fr\" is not in the bank's languages",
                      "b.json:title.RU: error: invalid language code \"RU\": use 2-3 lowercase "
                      "letters, optionally with a region, like \"en\" or \"pt-BR\"",
                      "b.json:title.ru: error: text is empty"});
        CHECK(bank_problems(header(R"(["en"])", R"("en")", R"({})")) ==
              Strings{"b.json:title: error: text has no translations"});
        CHECK(bank_problems(header(R"(["en"])", R"("en")", R"("")")) ==
              Strings{"b.json:title: error: text is empty"});
        CHECK(bank_problems(header(R"(["en"])", R"("en")", R"({"en": 3})")) ==
              Strings{"b.json:title.en: error: expected a string, got a number"});
    }
    SECTION("missing translations are warnings, listed per text") {
        const BankLoadResult result =
            load_bank(header(R"(["en", "ru", "id"])", R"("en")", R"({"en": "T"})"), "b.json");
        CHECK(testing::formatted(result.diagnostics) ==
              Strings{"b.json:title: warning: missing translations for \"ru\", \"id\""});
        CHECK(result.bank);   // warnings do not stop loading
        CHECK(bank_problems(header(R"(["en", "ru"])", R"("en")", R"({"ru": "T"})")) ==
              Strings{"b.json:title: warning: missing translation for \"en\""});
    }
    SECTION("a plain string counts for every language") {
        CHECK(bank_problems(header(R"(["en", "ru", "id"])", R"("en")", R"("ImQuiz")")).empty());
    }
}

TEST_CASE("questions", "[validation]") {
    SECTION("at least one") {
        CHECK(bank_problems(bank_json("[]")) ==
              Strings{"b.json:questions: error: a bank needs at least one question"});
    }
    SECTION("not an object") {
        CHECK(bank_problems(bank_json("[3]")) ==
              Strings{"b.json:questions[0]: error: expected an object, got a number"});
    }
    SECTION("required fields, and the explanation warning") {
        CHECK(bank_problems(bank_json("[{}]")) ==
              Strings{"b.json:questions[0]: error: missing required field \"type\"",
                      "b.json:questions[0]: error: missing required field \"id\"",
                      "b.json:questions[0]: error: missing required field \"prompt\"",
                      "b.json:questions[0]: warning: missing explanation"});
    }
    SECTION("unknown type") {
        CHECK(bank_problems(with_question(
                  R"({"id": "q", "type": "essay", "prompt": "p", "explanation": "e"})")) ==
              Strings{"b.json:questions[0].type: error: unknown question type \"essay\" "
                      "(expected single_choice, multiple_choice, true_false, numeric, "
                      "short_text, matching, ordering or cloze)"});
        CHECK(bank_problems(with_question(
                  R"({"id": "q", "type": "true-false", "prompt": "p", "explanation": "e"})")) ==
              Strings{"b.json:questions[0].type: error: unknown question type \"true-false\" "
                      "(did you mean \"true_false\"?)"});
    }
    SECTION("a field of another question type") {
        CHECK(bank_problems(with_question(R"({"id": "q", "type": "true_false", "prompt": "p",
              "explanation": "e", "answer": true, "choices": [], "unit": "m",
              "explanaton": "x"})")) ==
              Strings{"b.json:questions[0]: error: field \"choices\" is not used by true_false "
                      "questions",
                      "b.json:questions[0]: error: field \"unit\" is not used by true_false "
                      "questions",
                      "b.json:questions[0]: error: unknown field \"explanaton\" (did you mean "
                      "\"explanation\"?)"});
    }
    SECTION("duplicate question ids") {
        const std::string q = R"({"id": "same", "type": "true_false", "prompt": "p",
                                  "explanation": "e", "answer": true})";
        CHECK(bank_problems(bank_json("[" + q + "," + q + "]")) ==
              Strings{"b.json:questions[1].id: error: duplicate question id \"same\" (also at "
                      "questions[0])"});
    }
    SECTION("tags") {
        CHECK(bank_problems(with_question(R"({"id": "q", "type": "true_false", "prompt": "p",
              "explanation": "e", "answer": true, "tags": ["ok", "", 3]})")) ==
              Strings{"b.json:questions[0].tags[1]: error: tag is empty",
                      "b.json:questions[0].tags[2]: error: expected a string, got a number"});
    }
}

TEST_CASE("choice questions", "[validation]") {
    const auto choice_question = [](const std::string& type, const std::string& choices) {
        return with_question(R"({"id": "q", "type": ")" + type +
                             R"(", "prompt": "p", "explanation": "e", "choices": )" + choices +
                             "}");
    };
    SECTION("single_choice needs exactly one correct") {
        CHECK(bank_problems(choice_question("single_choice",
                                            R"([{"id": "a", "text": "A"}, {"id": "b", "text": "B"}])")) ==
              Strings{"b.json:questions[0].choices: error: single_choice needs exactly one "
                      "correct choice, has 0"});
        CHECK(bank_problems(choice_question("single_choice",
                                            R"([{"id": "a", "text": "A", "correct": true},
                                                {"id": "b", "text": "B", "correct": true}])")) ==
              Strings{"b.json:questions[0].choices: error: single_choice needs exactly one "
                      "correct choice, has 2"});
    }
    SECTION("multiple_choice needs at least one correct") {
        CHECK(bank_problems(choice_question("multiple_choice",
                                            R"([{"id": "a", "text": "A", "correct": false},
                                                {"id": "b", "text": "B"}])")) ==
              Strings{"b.json:questions[0].choices: error: multiple_choice needs at least one "
                      "correct choice"});
    }
    SECTION("at least two choices; choices required") {
        CHECK(bank_problems(choice_question("single_choice",
                                            R"([{"id": "a", "text": "A", "correct": true}])")) ==
              Strings{"b.json:questions[0].choices: error: needs at least 2 choices, has 1"});
        CHECK(bank_problems(with_question(R"({"id": "q", "type": "multiple_choice",
                                               "prompt": "p", "explanation": "e"})")) ==
              Strings{"b.json:questions[0]: error: missing required field \"choices\""});
    }
    SECTION("each choice: ids, texts, types, unknown fields") {
        CHECK(bank_problems(choice_question("single_choice", R"([
                  {"id": "a", "text": "A", "correct": true},
                  {"id": "a", "text": "", "correct": "yes"},
                  {"text": "C", "feedbak": "x"},
                  "d"])")) ==
              Strings{"b.json:questions[0].choices[1].id: error: duplicate choice id \"a\" "
                      "(also at questions[0].choices[0])",
                      "b.json:questions[0].choices[1].text: error: text is empty",
                      "b.json:questions[0].choices[1].correct: error: expected true or false, "
                      "got a string",
                      "b.json:questions[0].choices[2]: error: unknown field \"feedbak\" (did "
                      "you mean \"feedback\"?)",
                      "b.json:questions[0].choices[2]: error: missing required field \"id\"",
                      "b.json:questions[0].choices[3]: error: expected an object, got a string"});
    }
    SECTION("feedback is a text and may be translated") {
        CHECK(bank_problems(choice_question("single_choice", R"([
                  {"id": "a", "text": "A", "correct": true},
                  {"id": "b", "text": "B", "feedback": {"en": "No."}}])")) ==
              Strings{"b.json:questions[0].choices[1].feedback: warning: missing translation "
                      "for \"ru\""});
    }
}

TEST_CASE("true_false questions", "[validation]") {
    CHECK(bank_problems(with_question(R"({"id": "q", "type": "true_false", "prompt": "p",
                                          "explanation": "e", "answer": "true"})")) ==
          Strings{"b.json:questions[0].answer: error: expected true or false, got a string"});
    CHECK(bank_problems(with_question(R"({"id": "q", "type": "true_false", "prompt": "p",
                                          "explanation": "e"})")) ==
          Strings{"b.json:questions[0]: error: missing required field \"answer\""});
}

TEST_CASE("numeric questions", "[validation]") {
    const auto numeric = [](const std::string& answer) {
        return with_question(R"({"id": "q", "type": "numeric", "prompt": "p",
                                 "explanation": "e", "answer": )" + answer + "}");
    };
    SECTION("both forms load") {
        const Bank range = testing::load_valid_bank(numeric(R"({"min": 3, "max": 4})"));
        REQUIRE(range.questions.size() == 1);
        CHECK(range.questions[0].numeric_answer.form == NumericAnswer::Form::Range);
        CHECK(range.questions[0].numeric_answer.max == 4);
        const Bank exact = testing::load_valid_bank(numeric(R"({"value": -2})"));
        REQUIRE(exact.questions.size() == 1);
        CHECK(exact.questions[0].numeric_answer.tolerance == 0);
    }
    SECTION("problems") {
        CHECK(bank_problems(numeric("{}")) ==
              Strings{"b.json:questions[0].answer: error: numeric answer needs \"value\" (with an "
                      "optional \"tolerance\") or \"min\" and \"max\""});
        CHECK(bank_problems(numeric(R"({"value": 1, "min": 0})")) ==
              Strings{"b.json:questions[0].answer: error: use either \"value\" (with "
                      "\"tolerance\") or \"min\" and \"max\", not both"});
        CHECK(bank_problems(numeric(R"({"value": 1, "tolerance": -0.5})")) ==
              Strings{"b.json:questions[0].answer.tolerance: error: tolerance must not be "
                      "negative"});
        CHECK(bank_problems(numeric(R"({"min": 4, "max": 3.5})")) ==
              Strings{"b.json:questions[0].answer: error: min (4) must not be greater than max "
                      "(3.5)"});
        CHECK(bank_problems(numeric(R"({"min": 4})")) ==
              Strings{"b.json:questions[0].answer: error: missing required field \"max\""});
        CHECK(bank_problems(numeric(R"({"min": 1, "max": 2, "tolerance": 1})")) ==
              Strings{"b.json:questions[0].answer.tolerance: error: \"tolerance\" goes with "
                      "\"value\", not with \"min\" and \"max\""});
        CHECK(bank_problems(numeric(R"({"value": "3,5", "unit": "m"})")) ==
              Strings{"b.json:questions[0].answer: error: unknown field \"unit\"",
                      "b.json:questions[0].answer.value: error: expected a number, got a string"});
        CHECK(bank_problems(numeric("3.5")) ==
              Strings{"b.json:questions[0].answer: error: expected an object, got a number"});
    }
}

TEST_CASE("short_text questions", "[validation]") {
    const auto short_text = [](const std::string& accept) {
        return with_question(R"({"id": "q", "type": "short_text", "prompt": "p",
                                 "explanation": "e", "accept": )" + accept + "}");
    };
    CHECK(bank_problems(short_text(R"(["all-reduce", {"en": "x", "ru": "y"}])")).empty());
    CHECK(bank_problems(short_text("[]")) ==
          Strings{"b.json:questions[0].accept: error: accept needs at least one accepted answer"});
    CHECK(bank_problems(short_text(R"(["ok", "  ", 5])")) ==
          Strings{"b.json:questions[0].accept[1]: error: text is empty",
                  "b.json:questions[0].accept[2]: error: expected a text (a string, or an object "
                  "of translations), got a number"});
}

TEST_CASE("settings", "[validation]") {
    const std::string two = R"([{"id": "a", "type": "true_false", "prompt": "p",
                                 "explanation": "e", "answer": true},
                                {"id": "b", "type": "true_false", "prompt": "p",
                                 "explanation": "e", "answer": false}])";
    CHECK(bank_problems(bank_json(two, R"({"passPercent": 101, "poolSize": -1,
                                          "shuffleChoices": 1, "shuffleQuestion": true})")) ==
          Strings{"b.json:settings: error: unknown field \"shuffleQuestion\" (did you mean "
                  "\"shuffleQuestions\"?)",
                  "b.json:settings.shuffleChoices: error: expected true or false, got a number",
                  "b.json:settings.poolSize: error: poolSize must not be negative, got -1",
                  "b.json:settings.passPercent: error: passPercent must be between 0 and 100, "
                  "got 101"});
    CHECK(bank_problems(bank_json(two, R"({"poolSize": 3})")) ==
          Strings{"b.json:settings.poolSize: error: poolSize 3 is larger than the number of "
                  "questions (2)"});
    CHECK(bank_problems(bank_json(two, R"({"passPercent": 62.5})")) ==
          Strings{"b.json:settings.passPercent: error: expected a whole number, got 62.5"});
    CHECK(bank_problems(bank_json(two, R"({"poolSize": 2, "passPercent": 0})")).empty());
}

TEST_CASE("every problem of a broken bank is reported at once", "[validation]") {
    const std::string broken = R"({
  "format": "imquiz-bank", "version": 1, "id": "broken",
  "title": {"en": "Broken", "ru": ""},
  "languages": ["en", "ru"], "defaultLanguage": "en",
  "questions": [
    {"id": "one", "type": "single_choice", "prompt": "p",
     "choices": [{"id": "a", "text": "A"}, {"id": "a", "text": "B"}]},
    {"id": "one", "type": "numeric", "prompt": {"en": "n"}, "explanation": "e",
     "answer": {"min": 2, "max": 1}}
  ]
})";
    CHECK(bank_problems(broken) == Strings{
        "b.json:title.ru: error: text is empty",
        "b.json:questions[0]: warning: missing explanation",
        "b.json:questions[0].choices[1].id: error: duplicate choice id \"a\" (also at "
        "questions[0].choices[0])",
        "b.json:questions[0].choices: error: single_choice needs exactly one correct choice, "
        "has 0",
        "b.json:questions[1].id: error: duplicate question id \"one\" (also at questions[0])",
        "b.json:questions[1].prompt: warning: missing translation for \"ru\"",
        "b.json:questions[1].answer: error: min (2) must not be greater than max (1)"});
}
