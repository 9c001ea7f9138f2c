// Authoring (issue 10): the plain-text layout of our seed documents -> bank, with the right
// options marked in the document or given by a key file; the two seed documents with their keys
// (quizzes/sources/*.key) give the content of the shipped banks, through the corrections the
// banks list (issue 20).
#include "import_test_support.h"
#include "seed_corrections.h"

#include "engine/bank_loader.h"
#include "engine/import/import.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace imquiz;
using imquiz::testing::correct_texts;
using imquiz::testing::diagnostic_lines;
using imquiz::testing::import_sample;
using imquiz::testing::only_text;
using imquiz::testing::read_text_file;
using Strings = std::vector<std::string>;

TEST_CASE("import_text: right options marked in the document", "[import][text]") {
    const ImportResult result = import_text(import_sample("marked.txt"), "marked.txt", {});
    CHECK(diagnostic_lines(result.diagnostics) == Strings{
        "marked.txt:8:1: warning: missing explanation",
        "marked.txt:12:1: warning: missing explanation",
        "marked.txt:16:1: warning: missing explanation",
    });
    REQUIRE(result.bank);
    const Bank& bank = *result.bank;

    SECTION("the title line is the title, the paragraphs after it the description") {
        CHECK(bank.id == "marked");
        CHECK(only_text(bank.title) == "Sample Quiz");
        CHECK(only_text(bank.description) ==
              "A short quiz for the plain-text importer. Its intro may take two lines.\n"
              "And a second paragraph.");
    }
    SECTION("a trailing (*) marks the right option; one right option is a single choice") {
        const Question& question = bank.questions.at(0);
        CHECK(question.id == "q1");
        CHECK(question.type == QuestionType::SingleChoice);
        CHECK(only_text(question.prompt) == "Which city is the capital of France?");
        CHECK(correct_texts(question) == Strings{"Paris"});
        CHECK(question.choices.size() == 3);
    }
    SECTION("[x] after the bullet marks it too, [ ] is removed; several make a multiple choice") {
        const Question& question = bank.questions.at(1);
        CHECK(question.id == "q2");
        CHECK(question.type == QuestionType::MultipleChoice);
        CHECK(correct_texts(question) == Strings{"2", "3"});
        CHECK(only_text(question.choices.at(2).text) == "4");
    }
    SECTION("question and option texts continue on the following lines") {
        const Question& question = bank.questions.at(2);
        CHECK(only_text(question.prompt) == "A question whose text continues on a second line?");
        CHECK(correct_texts(question) ==
              Strings{"first option, whose text continues on the next line"});
    }
}

TEST_CASE("import_text: right options from a key file", "[import][text]") {
    SECTION("numbers and letters; the key wins over marks, with a warning") {
        const ImportResult result = import_text(import_sample("keyed.txt"), "keyed.txt", {},
                                                import_sample("keyed.key"), "keyed.key");
        CHECK(diagnostic_lines(result.diagnostics) == Strings{
            "keyed.txt:3:1: warning: missing explanation",
            "keyed.txt:6:1: warning: missing explanation",
            "keyed.txt:10:1: warning: the key file and the marks in the document disagree on "
            "question 3: the key file is used",
            "keyed.txt:10:1: warning: missing explanation",
        });
        REQUIRE(result.bank);
        const Bank& bank = *result.bank;
        CHECK(bank.description.empty());
        CHECK(correct_texts(bank.questions.at(0)) == Strings{"b"});
        CHECK(bank.questions.at(1).type == QuestionType::MultipleChoice);
        CHECK(correct_texts(bank.questions.at(1)) == Strings{"a", "c"});
        CHECK(correct_texts(bank.questions.at(2)) == Strings{"y"});
    }
    SECTION("a key that agrees with the marks says nothing") {
        const ImportResult result = import_text("1. Q?\n • a (*)\n • b\n", "agree.txt", {},
                                                std::string_view("1: 1\n"), "agree.key");
        CHECK(diagnostic_lines(result.diagnostics) ==
              Strings{"agree.txt:1:1: warning: missing explanation"});
    }
    SECTION("a key file with a byte order mark, CRLF and comments") {
        const ImportResult result =
            import_text("1. Q?\n • a\n • b\n", "bom.txt", {},
                        std::string_view("\xEF\xBB\xBF# comment\r\n// comment\r\n\r\n1 = b\r\n"),
                        "bom.key");
        REQUIRE(result.bank);
        CHECK(correct_texts(result.bank->questions.at(0)) == Strings{"b"});
    }
}

TEST_CASE("import_text: malformed documents and keys are reported, and no bank",
          "[import][text]") {
    const ImportResult result = import_text(import_sample("malformed.txt"), "malformed.txt", {},
                                            import_sample("malformed.key"), "malformed.key");
    CHECK_FALSE(result.bank);
    CHECK(diagnostic_lines(result.diagnostics) == Strings{
        "malformed.txt:3:1: error: option before the first numbered question",
        "malformed.txt:4:1: error: question 1 needs at least 2 options, has 1",
        "malformed.txt:6:1: error: question 2 has no right answer: mark the right option with "
        "\"(*)\" or list it in a key file",
        "malformed.txt:9:1: error: question number 2 is used twice (first at line 6)",
        "malformed.txt:15:4: error: the option text is empty",
        "malformed.txt:16:1: error: expected an option (\"\u2022 text\") or the next numbered "
        "question (\"4. text\")",
        "malformed.txt:17:1: error: question 4 has no text",
        "malformed.key:1:1: error: question 5 has 2 options; the key says 3",
        "malformed.key:2:1: error: question 6 is not in the document",
        "malformed.key:3:1: error: expected a line like \"1: 2\" or \"1 = B\" (the question "
        "number, then the right option's number or letter)",
        "malformed.key:4:1: error: question 4 has 2 options (A-B); the key says E",
        "malformed.key:5:1: error: question 4 is listed twice (first at line 4)",
    });

    SECTION("invalid UTF-8 in the key file") {
        const ImportResult broken = import_text("1. Q?\n • a (*)\n • b\n", "q.txt", {},
                                                std::string_view("1: \xFF\n"), "q.key");
        CHECK(diagnostic_lines(broken.diagnostics) ==
              Strings{"q.key:1:4: error: invalid UTF-8: save the key file as UTF-8"});
    }
    SECTION("more than 26 options: reported once, where the first one too many is") {
        std::string document = "1. Q?\n";
        for (int i = 0; i < 30; ++i)
            document += " \u2022 option " + std::to_string(i) + (i == 0 ? " (*)\n" : "\n");
        CHECK(diagnostic_lines(import_text(document, "many.txt", {}).diagnostics) ==
              Strings{"many.txt:28:2: error: too many options (the limit is 26)"});
    }
    SECTION("hostile input never throws or aborts") {
        for (const std::string& input :
             {std::string(100000, '1'), "1." + std::string(50000, ' '),
              std::string(20000, '\n') + "9999. x\n \u2022 a (*)\n \u2022 b",
              "\u2022" + std::string(1000, '\t')}) {
            const ImportResult hostile = import_text(input, "hostile.txt", {},
                                                     std::string_view("9999: 99\n0: 0\n:\n=\n"),
                                                     "hostile.key");
            CHECK(hostile.diagnostics.size() <= 500);
        }
    }
}

TEST_CASE("import_text: regression: an option line before the title line (found by the fuzzer)",
          "[import][text]") {
    // The header paragraph was appended to without being started: out-of-bounds write.
    const ImportResult result =
        import_text("\u2022 a\nTitle\n1. Q?\n \u2022 a (*)\n \u2022 b\n", "r.txt", {});
    CHECK(diagnostic_lines(result.diagnostics) ==
          Strings{"r.txt:1:1: error: option before the first numbered question"});
}

TEST_CASE("import_text: the plain-text examples in docs/authoring.md import without errors",
          "[import][text][docs]") {
    const std::string markdown =
        read_text_file(std::string(IMQUIZ_SOURCE_DIR) + "/docs/authoring.md");
    const std::vector<std::string> documents =
        imquiz::testing::markdown_blocks(markdown, "quiz-text");
    const std::vector<std::string> keys = imquiz::testing::markdown_blocks(markdown, "quiz-key");
    REQUIRE(documents.size() == 2);
    REQUIRE(keys.size() == 1);
    for (const std::string& document : documents) {
        INFO(document);
        // The first example marks its answers; the second is the one the key goes with.
        const bool keyed = &document == &documents.back();
        const ImportResult result =
            keyed ? import_text(document, "example.txt", {}, keys[0], "example.key")
                  : import_text(document, "example.txt", {});
        CHECK(imquiz::count_errors(result.diagnostics) == 0);
        CHECK(result.bank);
    }
}

// The seeds, imported with their keys, give the shipped banks' content once the corrections the
// bank's notes list are applied. The importer stores the
// whole document under one language; the seeds mix languages per question. Each seed line is
// compared with the shipped text in its own language: Cyrillic -> "ru"; other lines in a Russian
// seed -> "en"; an Indonesian seed's lines look like English ones (same script), so they are
// compared with the shipped texts in every language and the one that matches decides.
namespace {

struct SeedBank {
    const char* seed_file;
    const char* key_file;
    const char* bank_file;
    const char* seed_language;               // the title's and the promise line's
    Strings latin_script_languages;          // candidates for a line without Cyrillic
};

const std::vector<SeedBank> seed_banks = {
    {"000_9279350e320eea0c.txt", "000_9279350e320eea0c.key", "data-parallelism.json", "ru", {"en"}},
    {"003_6c732be9a77f62f5.txt", "003_6c732be9a77f62f5.key", "model-pipeline-parallelism.json", "id",
     {"id", "en"}},
};

// A seed line as the bank ships it: its listed correction, or the line itself.
std::string as_shipped(const std::string& line, const std::string& where,
                       const std::vector<imquiz::testing::SeedCorrection>& corrections) {
    for (const auto& correction : corrections)
        if (correction.where == where && correction.original == line) return correction.corrected;
    return line;
}

bool has_cyrillic(const std::string& text) {
    // U+0400..U+04FF are encoded with lead bytes 0xD0..0xD3.
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte >= 0xD0 && byte <= 0xD3;
    });
}

// The language of the shipped question whose prompt is `seed_prompt`, or "" if none matches.
std::string seed_language_of(const std::string& seed_prompt, const Question& shipped,
                             const SeedBank& seed) {
    const Strings candidates = has_cyrillic(seed_prompt) ? Strings{"ru"}
                                                         : seed.latin_script_languages;
    for (const std::string& language : candidates)
        if (shipped.prompt.has_language(language) &&
            shipped.prompt.get(language, "") == seed_prompt)
            return language;
    return "";
}

} // namespace

TEST_CASE("import_text: the seed documents with their keys give the shipped banks' content",
          "[import][text][seeds]") {
    for (const SeedBank& seed : seed_banks) {
        INFO("seed " << seed.seed_file);
        const std::string seed_text =
            read_text_file(std::string(IMQUIZ_SEEDS_DIR) + "/" + seed.seed_file);
        const std::string key_text =
            read_text_file(std::string(IMQUIZ_SEEDS_DIR) + "/" + seed.key_file);
        INFO("the seeds and their keys are read from IMQUIZ_SEEDS_DIR = " IMQUIZ_SEEDS_DIR);
        REQUIRE_FALSE(seed_text.empty());
        REQUIRE_FALSE(key_text.empty());
        const std::string bank_json =
            read_text_file(std::string(IMQUIZ_SOURCE_DIR) + "/quizzes/" + seed.bank_file);
        const BankLoadResult shipped_result = load_bank(bank_json, seed.bank_file);
        REQUIRE(shipped_result.bank);
        const Bank& shipped = *shipped_result.bank;
        std::vector<std::string> malformed;
        const auto corrections = imquiz::testing::corrections_in_notes(shipped.notes, malformed);
        CHECK(malformed.empty());

        ImportOptions options;
        options.language = seed.seed_language;
        options.bank_id = shipped.id;
        const ImportResult imported = import_text(seed_text, seed.seed_file, options, key_text,
                                                  seed.key_file);
        CHECK(imquiz::count_errors(imported.diagnostics) == 0);
        // The seeds have no explanations; nothing else is worth a warning.
        CHECK(imquiz::count_warnings(imported.diagnostics) == 8);
        REQUIRE(imported.bank);
        const Bank& bank = *imported.bank;

        CHECK(bank.id == shipped.id);
        CHECK(as_shipped(only_text(bank.title), "title", corrections) ==
              shipped.title.get(seed.seed_language, ""));
        CHECK(as_shipped(only_text(bank.description), "promise", corrections) ==
              shipped.description.get(seed.seed_language, ""));
        REQUIRE(bank.questions.size() == shipped.questions.size());
        for (std::size_t i = 0; i < bank.questions.size(); ++i) {
            const Question& question = bank.questions[i];
            const Question& shipped_question = shipped.questions[i];
            const std::string where = "Q" + std::to_string(i + 1);
            const std::string prompt = as_shipped(only_text(question.prompt), where, corrections);
            INFO("question " << i + 1 << ", as shipped: " << prompt);
            const std::string language = seed_language_of(prompt, shipped_question, seed);
            REQUIRE_FALSE(language.empty());

            CHECK(question.type == QuestionType::SingleChoice);
            CHECK(shipped_question.type == QuestionType::SingleChoice);
            REQUIRE(question.choices.size() == shipped_question.choices.size());
            Strings seed_options;
            Strings shipped_options;
            for (const Choice& choice : question.choices) {
                const std::string option_where =
                    where + "." + std::to_string(&choice - question.choices.data() + 1);
                seed_options.push_back(as_shipped(only_text(choice.text), option_where, corrections));
                CHECK(choice.text.has_language(seed.seed_language));
            }
            for (const Choice& choice : shipped_question.choices)
                shipped_options.push_back(choice.text.get(language, ""));
            // The shipped banks reorder the options (position gives nothing away): compare sets.
            std::sort(seed_options.begin(), seed_options.end());
            std::sort(shipped_options.begin(), shipped_options.end());
            CHECK(seed_options == shipped_options);

            Strings correct;
            for (const Choice& choice : question.choices)
                if (choice.correct)
                    correct.push_back(as_shipped(
                        only_text(choice.text),
                        where + "." + std::to_string(&choice - question.choices.data() + 1),
                        corrections));
            REQUIRE(correct.size() == 1);
            const Choice* shipped_correct =
                shipped_question.find_choice(shipped_question.correct_choice_ids().at(0));
            REQUIRE(shipped_correct != nullptr);
            CHECK(correct[0] == shipped_correct->text.get(language, ""));
        }
    }
}
