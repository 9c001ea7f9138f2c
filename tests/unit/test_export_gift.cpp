// Authoring (issue 10): bank -> GIFT, the round trip GIFT -> bank -> GIFT -> bank, what GIFT
// cannot hold (reported as losses), and bank_to_json() (bank -> JSON -> load_bank -> same bank).
#include "import_test_support.h"

#include "engine/bank_loader.h"
#include "engine/bank_writer.h"
#include "engine/import/import.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace imquiz;
using imquiz::testing::check_same_bank;
using imquiz::testing::diagnostic_lines;
using imquiz::testing::import_sample;
using imquiz::testing::only_text;
using imquiz::testing::read_text_file;
using Strings = std::vector<std::string>;

namespace {

Bank import_valid_gift(const std::string& gift, const std::string& file_name = "x.gift") {
    const ImportResult result = import_gift(gift, file_name, {});
    INFO(gift);
    for (const std::string& line : diagnostic_lines(result.diagnostics))
        UNSCOPED_INFO(line);
    REQUIRE(result.bank);
    return *result.bank;
}

Bank shipped_bank(const std::string& file) {
    const BankLoadResult result = load_bank(
        read_text_file(std::string(IMQUIZ_SOURCE_DIR) + "/quizzes/" + file), file);
    REQUIRE(result.bank);
    return *result.bank;
}

} // namespace

TEST_CASE("export_gift: round trip GIFT -> bank -> GIFT -> bank gives the same bank",
          "[export][gift]") {
    const Bank first = import_valid_gift(import_sample("roundtrip.gift"), "roundtrip.gift");
    REQUIRE(first.questions.size() == 13);
    std::vector<Diagnostic> losses;
    const std::string exported = export_gift(first, "en", &losses);
    CHECK(diagnostic_lines(losses).empty());
    const Bank second = import_valid_gift(exported, "roundtrip.gift");

    SECTION("equal banks, field by field and by fingerprint") {
        check_same_bank(first, second);
    }
    SECTION("exporting again writes the same text") {
        CHECK(export_gift(second, "en") == exported);
    }
    SECTION("the constructs of the subset came through") {
        CHECK(second.find_question("primes")->correct_choice_ids() == Strings{"2", "3", "5"});
        CHECK(second.find_question("one-weighted")->type == QuestionType::MultipleChoice);
        CHECK(second.find_question("negative")->numeric_answer.tolerance == 1e-9);
        CHECK(only_text(second.find_question("q11")->prompt) ==
              "Escapes { } = ~ # : and a backslash \\ survive, and so does a line\nbreak.");
        CHECK(only_text(second.find_question("q11")->choices.at(1).text) == "%d is a format");
        CHECK(only_text(second.find_question("plain")->prompt) ==
              "[html] is not a format here.");
        CHECK(second.find_question("vopros-po-russki")->correct_choice_ids() ==
              Strings{"russkiy"});
        CHECK(second.find_question("animal")->tags.empty());
        CHECK(second.find_question("pi")->tags == Strings{"numbers"});
    }
}

TEST_CASE("export_gift: the text written", "[export][gift]") {
    const Bank bank = import_valid_gift(
        "$CATEGORY: Basics\n\n"
        "::Capital::Capital of France? {=Paris#Yes. ~Lyon ####Paris: since 987.}\n\n"
        "::Primes::Primes? {~%50%2 ~%50%3 ~4}\n\n"
        "::Thirds::Thirds? {~%33.3%a ~%33.3%b ~%33.3%c ~d}\n\n"
        "::Flat::Flat? {F}\n\n"
        "::Pi::Pi? {#3.14:0.005}\n\n"
        "::Die::Die? {#1..6}\n\n"
        "::Big::Big? {#1e21}\n\n"
        "::Tenth::Tenth? {#0.1:1e-9}\n\n"
        "::Name::Name? {=Ann =Анна}\n\n"
        "::Percent::[plain][html]Odd {=%100%%d ~%0%%s ~other}\n",
        "small.gift");
    CHECK(export_gift(bank, "en") ==
          "// ImQuiz bank \"small\": Small\n"
          "// Texts in \"en\". Read back with: quizc import --from gift FILE --lang en --id small\n"
          "\n"
          "$CATEGORY: basics\n"
          "\n"
          "::capital::Capital of France? {\n"
          "=Paris#Yes.\n"
          "~Lyon\n"
          "####Paris\\: since 987.\n"
          "}\n"
          "\n"
          "::primes::Primes? {\n"
          "~%50%2\n"
          "~%50%3\n"
          "~%-100%4\n"
          "}\n"
          "\n"
          "::thirds::Thirds? {\n"
          "~%33.33333%a\n"
          "~%33.33333%b\n"
          "~%33.33333%c\n"
          "~%-100%d\n"
          "}\n"
          "\n"
          "::flat::Flat? {\n"
          "FALSE\n"
          "}\n"
          "\n"
          "::pi::Pi? {\n"
          "#3.14:0.005\n"
          "}\n"
          "\n"
          "::die::Die? {\n"
          "#1..6\n"
          "}\n"
          "\n"
          "::big::Big? {\n"
          "#1e+21\n"
          "}\n"
          "\n"
          "::tenth::Tenth? {\n"
          "#0.1:1e-09\n"
          "}\n"
          "\n"
          "::name::Name? {\n"
          "=Ann\n"
          "=Анна\n"
          "}\n"
          "\n"
          "::percent::[plain][html]Odd {\n"
          "=%100%%d\n"
          "~%0%%s\n"
          "~other\n"
          "}\n"
          "\n");
}

TEST_CASE("export_gift: what GIFT cannot hold is reported as a loss", "[export][gift]") {
    SECTION("a shipped trilingual bank") {
        const Bank bank = shipped_bank("data-parallelism.json");
        std::vector<Diagnostic> losses;
        const std::string exported = export_gift(bank, "ru", &losses);
        const Strings lines = diagnostic_lines(losses);
        // Three for the bank, one per question for its choice ids, one per question with
        // more than one tag (seven of the eight).
        REQUIRE(lines.size() == 3 + 8 + 7);
        CHECK(lines[0] == ":languages: warning: GIFT holds one language: only the \"ru\" texts "
                          "are exported");
        CHECK(lines[1] == ":notes: warning: GIFT has no author notes: they are left out");
        CHECK(lines[2] == ":settings: warning: GIFT has no bank settings: they are left out");
        CHECK(lines[3] == ":questions[0].choices: warning: GIFT has no choice ids: importing "
                          "this file makes them from the texts, so learners' progress on the "
                          "question would not carry over");
        CHECK(lines[4] == ":questions[1].tags: warning: GIFT keeps one category per question: "
                          "tags after the first are left out");

        SECTION("the export imports back: same questions, prompts, right answers, feedback") {
            ImportOptions options;
            options.language = "ru";
            const ImportResult result = import_gift(exported, "data-parallelism.gift", options);
            CHECK(imquiz::count_warnings(result.diagnostics) == 0);
            REQUIRE(result.bank);
            REQUIRE(result.bank->questions.size() == bank.questions.size());
            for (std::size_t i = 0; i < bank.questions.size(); ++i) {
                const Question& original = bank.questions[i];
                const Question& back = result.bank->questions[i];
                CHECK(back.id == original.id);
                CHECK(only_text(back.prompt) == original.prompt.get("ru", "en"));
                CHECK(only_text(back.explanation) == original.explanation.get("ru", "en"));
                CHECK(back.tags == Strings{original.tags.at(0)});
                REQUIRE(back.choices.size() == original.choices.size());
                for (std::size_t k = 0; k < back.choices.size(); ++k) {
                    CHECK(only_text(back.choices[k].text) ==
                          original.choices[k].text.get("ru", "en"));
                    CHECK(back.choices[k].correct == original.choices[k].correct);
                    CHECK(only_text(back.choices[k].feedback) ==
                          original.choices[k].feedback.get("ru", "en"));
                }
            }
        }
    }
    SECTION("units, extra tags, tags GIFT would rename, notes, arrows in short answers") {
        Bank bank = import_valid_gift("::N::N? {#3}\n\n::S::S? {=a -> b ~c}\n\n::T::T? {=x}\n");
        bank.notes = "for authors";
        bank.questions[0].unit = LocalizedText::same_in_all_languages("GB");
        bank.questions[0].tags = {"one", "two"};
        bank.questions[1].tags = {"Data Parallel"};
        bank.questions[2].accepted_texts.push_back(LocalizedText::same_in_all_languages("a -> b"));
        std::vector<Diagnostic> losses;
        export_gift(bank, "en", &losses);
        CHECK(diagnostic_lines(losses) == Strings{
            ":notes: warning: GIFT has no author notes: they are left out",
            ":questions[0].tags: warning: GIFT keeps one category per question: tags after the "
            "first are left out",
            ":questions[0].unit: warning: GIFT has no units: the unit is left out",
            ":questions[1].tags[0]: warning: the tag \"Data Parallel\" is read back from GIFT as "
            "\"data-parallel\"",
            ":questions[2].accept: warning: the answer \"a -> b\" contains \"->\": GIFT reads it "
            "as a matching question",
        });
    }
    SECTION("every translation of an accepted answer is written, the language's first") {
        Bank bank = import_valid_gift("::S::Animal? {=hedgehog}\n");
        LocalizedText answer;
        answer.set("en", "hedgehog");
        answer.set("ru", "ёж");
        bank.questions[0].accepted_texts = {answer, LocalizedText::same_in_all_languages("ёж")};
        const std::string exported = export_gift(bank, "ru");
        CHECK(exported.find("=ёж\n=hedgehog\n}") != std::string::npos);
        const Bank back = import_valid_gift(exported);
        CHECK(bank_fingerprint(back) == bank_fingerprint(bank));
    }
}

TEST_CASE("export bank_to_json: the shipped banks load back the same", "[export][json]") {
    for (const char* file : {"data-parallelism.json", "model-pipeline-parallelism.json"}) {
        INFO(file);
        const Bank bank = shipped_bank(file);
        const std::string json = bank_to_json(bank);
        const BankLoadResult back = load_bank(json, file);
        CHECK(back.diagnostics.empty());
        REQUIRE(back.bank);
        check_same_bank(bank, *back.bank);
        SECTION("translations follow the bank's languages, optional fields only when set") {
            CHECK(json.find("\"title\": {\n    \"en\": ") != std::string::npos);
            CHECK(json.find("\"shuffleChoices\": true") != std::string::npos);
            CHECK(json.find("\"passPercent\"") == std::string::npos);
            CHECK(json.find("\"correct\": false") == std::string::npos);
            CHECK(json.back() == '\n');
        }
    }
}

TEST_CASE("export bank_to_json: every question type and plain texts", "[export][json]") {
    Bank bank = import_valid_gift(import_sample("roundtrip.gift"), "roundtrip.gift");
    bank.description = LocalizedText::same_in_all_languages("Plain description");
    bank.notes = "notes";
    bank.settings.pool_size = 3;
    bank.settings.partial_credit = true;
    bank.settings.shuffle_questions = true;
    bank.settings.pass_percent = 50;
    bank.questions[5].numeric_answer = NumericAnswer{};   // a range has no value or tolerance
    bank.questions[5].numeric_answer.form = NumericAnswer::Form::Range;
    bank.questions[5].numeric_answer.min = -0.5;
    bank.questions[5].numeric_answer.max = 1e300;
    bank.questions[5].unit = LocalizedText::same_in_all_languages("m");
    const BankLoadResult back = load_bank(bank_to_json(bank), "roundtrip.json");
    REQUIRE(back.bank);
    check_same_bank(bank, *back.bank);
}
