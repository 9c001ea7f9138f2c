// Authoring (issue 10): Moodle GIFT -> bank. Every construct of tests/data/import/*.gift, the
// problems reported with their exact text and position, and the examples of docs/authoring.md.
#include "import_test_support.h"

#include "engine/bank_loader.h"
#include "engine/bank_writer.h"
#include "engine/import/import.h"
#include "engine/markdown.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace imquiz;
using imquiz::testing::correct_texts;
using imquiz::testing::diagnostic_lines;
using imquiz::testing::import_sample;
using imquiz::testing::only_text;
using Strings = std::vector<std::string>;

namespace {

std::vector<std::string> accepted(const Question& question) {
    std::vector<std::string> texts;
    for (const LocalizedText& text : question.accepted_texts)
        texts.push_back(only_text(text));
    return texts;
}

Strings texts_of(const std::vector<Choice>& choices) {
    Strings texts;
    for (const Choice& choice : choices)
        texts.push_back(only_text(choice.text));
    return texts;
}

ImportResult import_inline(const std::string& text, const ImportOptions& options = {}) {
    return import_gift(text, "inline.gift", options);
}

} // namespace

TEST_CASE("import_gift: every supported construct", "[import][gift]") {
    const ImportResult result = import_gift(import_sample("all-constructs.gift"),
                                            "all-constructs.gift", {});
    CHECK(diagnostic_lines(result.diagnostics) == Strings{
        "all-constructs.gift:13:1: warning: missing explanation",
        "all-constructs.gift:23:1: warning: missing explanation",
        "all-constructs.gift:27:1: warning: the answer feedback of a true/false question is "
        "dropped: the bank keeps only the #### general feedback, as the explanation",
        "all-constructs.gift:33:1: warning: missing explanation",
        "all-constructs.gift:35:1: warning: missing explanation",
        "all-constructs.gift:37:1: warning: missing explanation",
        "all-constructs.gift:42:1: warning: the numerical question has 2 answers: only the first "
        "fully right one is kept",
        "all-constructs.gift:49:1: warning: missing explanation",
        "all-constructs.gift:49:73: warning: short answer with weight 50% is dropped: only fully "
        "right answers are accepted",
        "all-constructs.gift:51:1: warning: missing explanation",
        "all-constructs.gift:54:1: warning: missing explanation",
        "all-constructs.gift:56:1: warning: missing explanation",
        "all-constructs.gift:56:9: warning: [html] text is shown as written, tags included: "
        "ImQuiz does not render HTML",
        "all-constructs.gift:58:1: warning: missing explanation",
        "all-constructs.gift:63:1: warning: missing explanation",
        "all-constructs.gift:66:1: warning: missing explanation",
        "all-constructs.gift:73:1: warning: missing explanation",
        "all-constructs.gift:77:1: warning: essay question (empty answers {}) is not supported: "
        "skipped",
        "all-constructs.gift:79:1: warning: description item (text without answers) is not "
        "supported: skipped",
    });
    REQUIRE(result.bank);
    const Bank& bank = *result.bank;
    // The sample has a [markdown] question, so the bank is a Markdown bank (its other texts
    // escaped): what each text says is its words as Markdown reads them.
    CHECK(bank.text_format == TextFormat::Markdown);
    auto only_text = [](const LocalizedText& text) {
        return plain_text(read_markdown(imquiz::testing::only_text(text)).text);
    };
    REQUIRE(bank.questions.size() == 19);
    const auto question = [&](const char* id) -> const Question& {
        const Question* found = bank.find_question(id);
        INFO("question id " << id);
        REQUIRE(found != nullptr);
        return *found;
    };

    SECTION("the bank around the questions") {
        CHECK(bank.id == "all-constructs");
        CHECK(only_text(bank.title) == "All constructs");
        CHECK(bank.title.has_language("en"));
        CHECK(bank.description.empty());
        CHECK(bank.languages == Strings{"en"});
        CHECK(bank.default_language == "en");
    }
    SECTION("ids: titles become slugs, untitled questions are numbered") {
        Strings ids;
        for (const Question& item : bank.questions)
            ids.push_back(item.id);
        CHECK(ids == Strings{"capital-of-france", "primes", "earth-flat", "sun-star", "water-wet",
                             "moon-cheese", "pi", "dice", "seven", "speed-of-light", "animal",
                             "capital-name", "q13", "q14", "html", "colon-title",
                             "moodle-format", "matching", "q19"});
    }
    SECTION("matching: items, answers, and an answer no item goes with") {
        const Question& matching = question("matching");
        CHECK(matching.type == QuestionType::Matching);
        REQUIRE(matching.match_items.size() == 2);
        REQUIRE(matching.choices.size() == 3);
        CHECK(only_text(matching.match_items[0].text) == "France");
        CHECK(matching.match_items[0].answer_id == "paris");
        CHECK(matching.match_items[1].answer_id == "rome");
        CHECK(only_text(matching.choices[2].text) == "Madrid");
    }
    SECTION("missing word: a cloze question with one blank of choices, in a Markdown bank") {
        const Question& missing = question("q19");
        CHECK(missing.type == QuestionType::Cloze);
        CHECK(only_text(missing.prompt) == "The capital of France is {{blank}} and it is big.");
        REQUIRE(missing.blanks.size() == 1);
        CHECK(missing.blanks[0].kind == Blank::Kind::Options);
        CHECK(texts_of(missing.blanks[0].options) == Strings{"Paris", "Lyon"});
        CHECK(missing.blanks[0].correct_option()->id == "paris");
    }
    SECTION("multiple choice") {
        SECTION("one right answer with =: single choice, per-answer and general feedback") {
            const Question& capital = question("capital-of-france");
            CHECK(capital.type == QuestionType::SingleChoice);
            CHECK(only_text(capital.prompt) == "What is the capital of France?");
            REQUIRE(capital.choices.size() == 3);
            CHECK(capital.choices[0].id == "paris");
            CHECK(capital.choices[0].correct);
            CHECK(only_text(capital.choices[0].feedback) == "Right, Paris is the capital.");
            CHECK(capital.choices[1].id == "lyon");
            CHECK(only_text(capital.choices[1].feedback) == "Lyon is the second city.");
            CHECK(capital.choices[2].feedback.empty());
            CHECK(only_text(capital.explanation) == "Paris has been the capital since 987.");
        }
        SECTION("weights: positive ones are right, negative and none are wrong") {
            const Question& primes = question("primes");
            CHECK(primes.type == QuestionType::MultipleChoice);
            CHECK(correct_texts(primes) == Strings{"2", "3"});
            REQUIRE(primes.choices.size() == 4);
            CHECK(only_text(primes.choices[2].feedback) == "4 = 2 × 2.");
            CHECK(primes.explanation.empty());
        }
    }
    SECTION("true/false: T, TRUE, F, FALSE and their feedback") {
        CHECK(question("earth-flat").type == QuestionType::TrueFalse);
        CHECK_FALSE(question("earth-flat").true_false_answer);
        CHECK(question("earth-flat").explanation.empty());
        CHECK(question("sun-star").true_false_answer);
        CHECK(only_text(question("sun-star").explanation) == "The Sun is the closest star to us.");
        CHECK(question("water-wet").true_false_answer);
        CHECK(only_text(question("water-wet").explanation) == "Water wets what it touches.");
        CHECK_FALSE(question("moon-cheese").true_false_answer);
        CHECK(only_text(question("moon-cheese").explanation) ==
              "Only in cartoons. Right, it is rock.");
        CHECK(question("moodle-format").true_false_answer);
        CHECK(only_text(question("moodle-format").prompt) == "Moodle text.");
    }
    SECTION("numerical: value:tolerance, range, exact, several answers") {
        const NumericAnswer& pi = question("pi").numeric_answer;
        CHECK(question("pi").type == QuestionType::Numeric);
        CHECK(pi.form == NumericAnswer::Form::ValueWithTolerance);
        CHECK(pi.value == 3.14);
        CHECK(pi.tolerance == 0.005);
        const NumericAnswer& dice = question("dice").numeric_answer;
        CHECK(dice.form == NumericAnswer::Form::Range);
        CHECK(dice.min == 1);
        CHECK(dice.max == 6);
        CHECK(question("seven").numeric_answer.value == 7);
        CHECK(question("seven").numeric_answer.tolerance == 0);
        const Question& light = question("speed-of-light");
        CHECK(only_text(light.prompt) == "How fast is light in vacuum, in km/s?");
        CHECK(light.numeric_answer.value == 299792);
        CHECK(light.numeric_answer.tolerance == 1);
        CHECK(only_text(light.explanation) == "Right.");
    }
    SECTION("short answer: every fully right answer is accepted") {
        CHECK(question("animal").type == QuestionType::ShortText);
        CHECK(accepted(question("animal")) == Strings{"hedgehog", "porcupine"});
        CHECK(only_text(question("animal").explanation) == "Both have spines.");
        CHECK(accepted(question("capital-name")) == Strings{"Paris", "Paris, France"});
    }
    SECTION("categories become tags: the last part of the path, as a slug") {
        CHECK(question("capital-of-france").tags == Strings{"multiple-choice"});
        CHECK(question("primes").tags == Strings{"multiple-choice"});
        CHECK(question("earth-flat").tags == Strings{"truth"});
        CHECK(question("speed-of-light").tags == Strings{"numbers"});
        CHECK(question("moodle-format").tags == Strings{"words"});
    }
    SECTION("escapes, line breaks and format prefixes") {
        CHECK(only_text(question("q13").prompt) ==
              "Untitled question with an escaped {brace}, an equals sign = and a hash #, "
              "written on two lines.");
        CHECK(only_text(question("q14").prompt) == "A question in markdown.");
    CHECK(imquiz::testing::only_text(question("q14").prompt) == "A question in **markdown**.");
        CHECK(only_text(question("html").prompt) == "<b>Bold</b> question?");
        const Question& colon = question("colon-title");
        CHECK(only_text(colon.prompt) == "Plain text: with a colon: and a line\nbreak.");
        REQUIRE(colon.choices.size() == 2);
        CHECK(only_text(colon.choices[0].text) == "first line\nsecond line");
        CHECK(colon.choices[0].id == "first-line-second-line");
    }
    SECTION("the bank validates: what quizc validate would say is already in the diagnostics") {
        const BankLoadResult loaded = load_bank(bank_to_json(bank), "all-constructs.gift");
        REQUIRE(loaded.bank);
        CHECK(imquiz::count_errors(loaded.diagnostics) == 0);
        CHECK(imquiz::count_warnings(loaded.diagnostics) == 13);   // the missing explanations
    }
}

TEST_CASE("import_gift: malformed items are reported with line and column, and no bank",
          "[import][gift]") {
    const ImportResult result = import_gift(import_sample("malformed.gift"), "malformed.gift", {});
    CHECK_FALSE(result.bank);
    CHECK(diagnostic_lines(result.diagnostics) == Strings{
        "malformed.gift:3:28: error: the answers opened here are not closed: expected \"}\"",
        "malformed.gift:5:1: error: the multiple choice question has no right answer: mark one "
        "with \"=\" or weight it like \"~%50%\"",
        "malformed.gift:7:27: error: invalid numerical answer \"three\": expected a number like "
        "3.5, 3.5:0.1 or 1..5",
        "malformed.gift:9:18: error: \"}\" without an opening \"{\": write \\} for a literal brace",
        "malformed.gift:11:24: error: unknown answers \"maybe\": expected answers starting with "
        "\"=\" or \"~\", T, TRUE, F or FALSE, or \"#\" for a number",
        "malformed.gift:13:1: error: the question title is not closed: expected \"::\" after it",
        "malformed.gift:15:28: error: the answer text is empty",
        "malformed.gift:17:23: error: invalid weight \"%fifty%\": expected a percentage from -100 "
        "to 100, like %50%",
        "malformed.gift:19:23: error: the range \"5..1\" starts above its end",
        "malformed.gift:21:36: error: the tolerance must not be negative",
        "malformed.gift:23:22: error: \"{\" inside the answers: write \\{ for a literal brace",
        "malformed.gift:25:1: error: the numerical question has no fully right answer (\"=\" "
        "without a weight, or \"=%100%\")",
        "malformed.gift:27:1: error: the short answer question has no fully right answer (\"=\" "
        "without a weight, or \"=%100%\")",
        "malformed.gift:27:27: warning: short answer with weight 50% is dropped: only fully right "
        "answers are accepted",
        "malformed.gift:29:1: error: the question text is empty",
        "malformed.gift:31:30: error: a true/false answer takes at most two feedbacks (#for a "
        "wrong answer#for a right one)",
        "malformed.gift:33:17: error: the number \"1e999\" is out of range",
    });
}

TEST_CASE("import_gift: options decide the id, language and title", "[import][gift]") {
    const std::string gift = "::A::Is it? {T####Yes.}\n";

    SECTION("defaults: id and title from the file name, English") {
        const ImportResult result = import_gift(gift, "quizzes/Week 3_quiz.gift", {});
        REQUIRE(result.bank);
        CHECK(result.bank->id == "week-3-quiz");
        CHECK(only_text(result.bank->title) == "Week 3 quiz");
        CHECK(result.bank->languages == Strings{"en"});
        CHECK(result.bank->questions[0].prompt.has_language("en"));
    }
    SECTION("a file name with nothing to make an id of") {
        const ImportResult result = import_gift(gift, "---.gift", {});
        REQUIRE(result.bank);
        CHECK(result.bank->id == "imported");
        CHECK(only_text(result.bank->title) == "Imported quiz");
    }
    SECTION("given id, language and title") {
        ImportOptions options;
        options.bank_id = "my-bank";
        options.language = "pt-BR";
        options.title = "  Meu banco ";
        const ImportResult result = import_gift(gift, "x.gift", options);
        REQUIRE(result.bank);
        CHECK(result.bank->id == "my-bank");
        CHECK(result.bank->languages == Strings{"pt-BR"});
        CHECK(result.bank->default_language == "pt-BR");
        CHECK(result.bank->title.get("pt-BR", "pt-BR") == "Meu banco");
        CHECK(result.bank->questions[0].explanation.has_language("pt-BR"));
    }
    SECTION("an invalid id or language is an error for the file as a whole") {
        ImportOptions options;
        options.bank_id = "My Bank";
        options.language = "english";
        const ImportResult result = import_gift(gift, "x.gift", options);
        CHECK_FALSE(result.bank);
        CHECK(diagnostic_lines(result.diagnostics) == Strings{
            "x.gift: error: invalid language code \"english\": use 2-3 lowercase letters, "
            "optionally with a region, like \"en\" or \"pt-BR\"",
            "x.gift: error: invalid bank id \"My Bank\": use lowercase letters, digits and single "
            "hyphens (at most 64 characters), like \"data-parallelism\"",
        });
    }
}

TEST_CASE("import_gift: ids", "[import][gift]") {
    SECTION("equal titles get a suffix; a title without letters gives a number") {
        const ImportResult result = import_inline(
            "::Same::One? {T}\n\n::Same::Two? {T}\n\n::???::Three? {T}\n\n::q3::Four? {T}\n");
        REQUIRE(result.bank);
        Strings ids;
        for (const Question& question : result.bank->questions)
            ids.push_back(question.id);
        CHECK(ids == Strings{"same", "same-2", "q3", "q3-2"});
    }
    SECTION("Cyrillic titles and choices are transliterated") {
        const ImportResult result =
            import_inline("::Ёжик в тумане::Кто это? {=Ёжик ~Медвежонок ~Ёжик}\n");
        REQUIRE(result.bank);
        const Question& question = result.bank->questions[0];
        CHECK(question.id == "ezhik-v-tumane");
        CHECK(question.choices[0].id == "ezhik");
        CHECK(question.choices[1].id == "medvezhonok");
        CHECK(question.choices[2].id == "ezhik-2");
    }
    SECTION("choices with no letter to keep are numbered") {
        const ImportResult result = import_inline("Pick. {=! ~?}\n");
        REQUIRE(result.bank);
        CHECK(result.bank->questions[0].choices[0].id == "choice-1");
        CHECK(result.bank->questions[0].choices[1].id == "choice-2");
    }
    SECTION("a long title is cut at a word boundary, within the id limit") {
        const ImportResult result = import_inline(
            "::" + std::string(30, 'a') + " " + std::string(30, 'b') + " " + std::string(30, 'c') +
            "::Long? {T}\n");
        REQUIRE(result.bank);
        CHECK(result.bank->questions[0].id == std::string(30, 'a') + "-" + std::string(30, 'b'));
    }
    SECTION("categories: Cyrillic transliterated, no letters kept as written, empty resets") {
        const ImportResult result = import_inline(
            "$CATEGORY: $course$/Вопросы\n::A::A? {T}\n\n$CATEGORY: ???\n\n::B::B? {T}\n\n"
            "$CATEGORY:\n\n::C::C? {T}\n");
        REQUIRE(result.bank);
        CHECK(result.bank->questions[0].tags == Strings{"voprosy"});
        CHECK(result.bank->questions[1].tags == Strings{"???"});
        CHECK(result.bank->questions[2].tags.empty());
    }
}

TEST_CASE("import_gift: encodings and line endings", "[import][gift]") {
    SECTION("a byte order mark and CRLF line ends are accepted") {
        const ImportResult result = import_inline("\xEF\xBB\xBF::A::Is it? {T}\r\n\r\n"
                                                  "::B::Is it not? {\r\n=yes\r\n~no\r\n}\r\n");
        REQUIRE(result.bank);
        REQUIRE(result.bank->questions.size() == 2);
        CHECK(result.bank->questions[0].id == "a");
        CHECK(only_text(result.bank->questions[1].choices[0].text) == "yes");
    }
    SECTION("invalid UTF-8 is an error at the first bad byte") {
        const ImportResult result = import_inline("::A::Is it?\n Вопрос\xFF? {T}\n");
        CHECK_FALSE(result.bank);
        CHECK(diagnostic_lines(result.diagnostics) ==
              Strings{"inline.gift:2:8: error: invalid UTF-8: save the file as UTF-8"});
    }
    SECTION("the column counts characters, not bytes") {
        const ImportResult result = import_inline("::Ёж::Вопрос? {#abc}\n");
        CHECK(diagnostic_lines(result.diagnostics) ==
              Strings{"inline.gift:1:17: error: invalid numerical answer \"abc\": expected a "
                      "number like 3.5, 3.5:0.1 or 1..5"});
    }
}

TEST_CASE("import_gift: nothing to import", "[import][gift]") {
    SECTION("an empty file") {
        CHECK(diagnostic_lines(import_inline("").diagnostics) ==
              Strings{"inline.gift: error: no questions found"});
    }
    SECTION("only comments and skipped items") {
        const ImportResult result = import_inline("// nothing\n\nWrite an essay. {}\n");
        CHECK_FALSE(result.bank);
        CHECK(diagnostic_lines(result.diagnostics) ==
              Strings{"inline.gift: error: no questions found",
                      "inline.gift:3:1: warning: essay question (empty answers {}) is not "
                      "supported: skipped"});
    }
}

TEST_CASE("import_gift: problems load_bank finds are moved to the line of their question or "
          "choice", "[import][gift]") {
    // A no-break space is a text to the importer but blank to the bank loader.
    const ImportResult result = import_inline(
        "::Fine::Fine? {T####Yes.}\n\n::Blank::Pick. {\n=right\n~\u00A0\n####Because.\n}\n");
    CHECK_FALSE(result.bank);
    CHECK(diagnostic_lines(result.diagnostics) ==
          Strings{"inline.gift:5:1: error: choices[1].text.en: text is empty"});
}

TEST_CASE("import_gift: limits are checked while reading", "[import][gift]") {
    SECTION("answers of one question") {
        std::string gift = "::Fine::Fine? {T####Yes.}\n\n::Many::Too many choices? {\n=right\n";
        for (int i = 0; i < 26; ++i)
            gift += "~wrong " + std::to_string(i) + "\n";
        gift += "####Because.\n}\n";
        const ImportResult result = import_inline(gift);
        CHECK_FALSE(result.bank);
        CHECK(diagnostic_lines(result.diagnostics) ==
              Strings{"inline.gift:3:1: error: too many answers: 27 (the limit is 26)"});
    }
    SECTION("questions; equal titles stay cheap to number") {
        std::string gift;
        for (int i = 0; i < 20001; ++i)
            gift += "::Same::Q? {T}\n\n";
        const ImportResult result = import_inline(gift);
        CHECK_FALSE(result.bank);
        CHECK(diagnostic_lines(result.diagnostics) ==
              Strings{"inline.gift:40001:1: error: too many questions: the limit is 20000"});
    }
}

TEST_CASE("import_gift: hostile input never throws or aborts", "[import][gift]") {
    const std::vector<std::string> inputs = {
        std::string(100000, '{'),
        std::string(100000, '}'),
        std::string(50000, '~') + "{",
        "{" + std::string(50000, '~') + "}",
        "::" + std::string(10000, ':'),
        std::string(20000, '\\'),
        "Q {#" + std::string(5000, '.') + "}",
        "Q {#1.." + std::string(400, '9') + "}",
        "Q {~%" + std::string(1000, '5') + "%a =b}",
        "Q {T#\\",
        "$CATEGORY:" + std::string(1000, '/'),
        std::string("Q {=a\0b}", 8),
    };
    for (const std::string& input : inputs) {
        const ImportResult result = import_inline(input);
        CHECK(result.diagnostics.size() <= 500);
    }
}

TEST_CASE("import_gift: the GIFT examples in docs/authoring.md import without errors",
          "[import][gift][docs]") {
    const std::vector<std::string> examples = imquiz::testing::markdown_blocks(
        imquiz::testing::read_text_file(std::string(IMQUIZ_SOURCE_DIR) + "/docs/authoring.md"),
        "gift");
    REQUIRE(examples.size() >= 2);
    for (const std::string& example : examples) {
        INFO(example);
        const ImportResult result = import_gift(example, "example.gift", {});
        CHECK(imquiz::count_errors(result.diagnostics) == 0);
        CHECK(result.bank);
    }
}

TEST_CASE("import_gift: a [markdown] question makes a Markdown bank; the plain ones read as written",
          "[import][gift]") {
    // Moodle's own example of the format tag, beside a plain question with Markdown's characters.
    const char* gift = "::Markdown::[markdown]Which of these is **bold**? `code` too {\n"
                       "=*Strong* text\n"
                       "~Plain\n"
                       "}\n"
                       "\n"
                       "::Plain::2 * 3 = ? (not *emphasis*)\\nand a second line {\n"
                       "=6 \\# exactly\n"
                       "~5_4\n"
                       "}\n";
    ImportResult result = import_gift(gift, "mixed.gift");
    REQUIRE(result.bank);
    const Bank& bank = *result.bank;
    CHECK(bank.text_format == TextFormat::Markdown);
    auto words = [&](const LocalizedText& text) { return plain_text(read_markdown(bank.text(text, "en")).text); };
    REQUIRE(bank.questions.size() == 2);
    CHECK(bank.text(bank.questions[0].prompt, "en") == "Which of these is **bold**? `code` too");
    CHECK(words(bank.questions[0].prompt) == "Which of these is bold? code too");
    CHECK(words(bank.questions[0].choices[0].text) == "Strong text");
    // The plain question: escaped, so Markdown gives back exactly its characters and its break.
    CHECK(words(bank.questions[1].prompt) == "2 * 3 = ? (not *emphasis*)\nand a second line");
    CHECK(words(bank.questions[1].choices[0].text) == "6 # exactly");
    CHECK(words(bank.questions[1].choices[1].text) == "5_4");
    // The written bank validates, and its export marks every question [markdown].
    for (const Diagnostic& d : load_bank(bank_to_json(bank), "mixed.json").diagnostics)
        CHECK(d.severity == Diagnostic::Severity::Warning);  // "missing explanation", nothing more
    const std::string exported = export_gift(bank, "en");
    CHECK(exported.find("::markdown::[markdown]Which of these is **bold**?") != std::string::npos);
    CHECK(exported.find("::plain::[markdown]2") != std::string::npos);
    ImportResult again = import_gift(exported, "again.gift");
    REQUIRE(again.bank);
    CHECK(again.bank->text_format == TextFormat::Markdown);
    CHECK(plain_text(read_markdown(again.bank->text(again.bank->questions[1].prompt, "en")).text) ==
          "2 * 3 = ? (not *emphasis*)\nand a second line");

    // A file without [markdown] stays a plain bank, texts untouched.
    ImportResult plain = import_gift("::P::2 * 3 {=6}\n", "plain.gift");
    REQUIRE(plain.bank);
    CHECK(plain.bank->text_format == TextFormat::Plain);
    CHECK(plain.bank->text(plain.bank->questions[0].prompt, "en") == "2 * 3");
}

TEST_CASE("import_gift: missing-word questions are cloze questions with one blank",
          "[import][gift][cloze]") {
    const ImportResult result = import_gift(import_sample("missing-word.gift"), "missing-word.gift");
    CHECK(diagnostic_lines(result.diagnostics) == Strings{});
    REQUIRE(result.bank);
    const Bank& bank = *result.bank;
    CHECK(bank.text_format == TextFormat::Plain);
    REQUIRE(bank.questions.size() == 6);
    for (const Question& question : bank.questions) {
        INFO(question.id);
        CHECK(question.type == QuestionType::Cloze);
        REQUIRE(question.blanks.size() == 1);
        CHECK(question.blanks[0].id == "blank");
        CHECK(question.blanks[0].feedback.empty());
        CHECK(question.tags == Strings{"solar-system"});
    }
    SECTION("choices: the text on both sides of the blank, per-choice and general feedback") {
        const Question& mercury = bank.questions[0];
        CHECK(only_text(mercury.prompt) == "Mercury is the {{blank}} planet of the solar system.");
        const Blank& blank = mercury.blanks[0];
        CHECK(blank.kind == Blank::Kind::Options);
        CHECK(texts_of(blank.options) == Strings{"smallest", "largest", "hottest"});
        CHECK(blank.correct_option()->id == "smallest");
        CHECK(only_text(blank.options[1].feedback) == "That is Jupiter.");
        CHECK(only_text(mercury.explanation) == "It is also the planet closest to the Sun.");
        CHECK(only_text(bank.questions[1].prompt) ==
              "The \"red planet\" is {{blank}}, the fourth from the Sun.");
        CHECK(bank.questions[1].blanks[0].correct_option()->id == "mars");
    }
    SECTION("typed: only = answers; their feedback becomes the explanation, as for short answers") {
        const Question& moons = bank.questions[2];
        CHECK(only_text(moons.prompt) == "{{blank}} is one of the two moons of Mars.");
        CHECK(moons.blanks[0].kind == Blank::Kind::Typed);
        REQUIRE(moons.blanks[0].accepted_texts.size() == 2);
        CHECK(only_text(moons.blanks[0].accepted_texts[1]) == "Deimos");
        CHECK(only_text(moons.explanation) == "Both are small and irregular.");
    }
    SECTION("numeric: value with tolerance, or a range; a line break in the text is a space") {
        const Blank& boiling = bank.questions[3].blanks[0];
        CHECK(boiling.kind == Blank::Kind::Numeric);
        CHECK(boiling.numeric_answer.value == 100);
        CHECK(boiling.numeric_answer.tolerance == 0.5);
        const Question& dice = bank.questions[4];
        CHECK(only_text(dice.prompt) ==
              "A die shows a number from {{blank}} on each throw, written here on two lines.");
        CHECK(dice.blanks[0].numeric_answer.form == NumericAnswer::Form::Range);
        CHECK(dice.blanks[0].numeric_answer.max == 6);
    }
    SECTION("escaped braces in the choices; choice ids unique within the blank") {
        const Blank& braces = bank.questions[5].blanks[0];
        CHECK(texts_of(braces.options) == Strings{"[ and ]", "{ and }", "( and )"});
        CHECK(braces.options[1].id == "and-2");
        CHECK(braces.correct_option()->id == "and-2");
    }
    SECTION("the bank validates") {
        const BankLoadResult loaded = load_bank(bank_to_json(bank), "missing-word.json");
        REQUIRE(loaded.bank);
        CHECK(diagnostic_lines(loaded.diagnostics) == Strings{});
    }
}

TEST_CASE("import_gift: what a missing word cannot be", "[import][gift][cloze]") {
    SECTION("answers a blank cannot take are skipped with a warning") {
        const ImportResult result = import_inline(
            "::TF::The Sun {T} rises in the east.\n\n"
            "::Match::Pair {=a -> 1 =b -> 2} them.\n\n"
            "::Two right::Pick {~%50%two =%50%both ~none} of them.\n\n"
            "::Essay::Write {} here.\n\n"
            "::Fine::Fine {=yes ~no} here.####No, not general feedback.\n");
        CHECK(diagnostic_lines(result.diagnostics) == Strings{
            "inline.gift:1:15: warning: true/false answers inside the text are not supported (a "
            "missing word has choices, accepted answers or a number): skipped",
            "inline.gift:3:15: warning: matching answers inside the text are not supported (a "
            "missing word has choices, accepted answers or a number): skipped",
            "inline.gift:5:19: warning: a missing word has one right answer, these answers have 2: "
            "skipped",
            "inline.gift:7:1: warning: essay question (empty answers {}) is not supported: skipped",
            "inline.gift:9:1: warning: missing explanation",
        });
        REQUIRE(result.bank);
        REQUIRE(result.bank->questions.size() == 1);
        CHECK(only_text(result.bank->questions[0].prompt) ==
              "Fine {{blank}} here.####No, not general feedback.");
    }
    SECTION("a second set of answers after the first is an error") {
        const ImportResult result =
            import_inline("::Two::One {=a ~b} and two {=c ~d}.\n\n::Close::One {=a ~b} and } more.\n");
        CHECK_FALSE(result.bank);
        CHECK(diagnostic_lines(result.diagnostics) == Strings{
            "inline.gift:1:28: error: \"{\" after the answers: a GIFT question has one set of "
            "answers (write \\{ for a literal brace)",
            "inline.gift:3:26: error: \"}\" after the answers: a GIFT question has one set of "
            "answers (write \\} for a literal brace)",
        });
    }
    SECTION("a short answer dropped for its weight, and answer feedback beside ####") {
        const ImportResult result =
            import_inline("::Typed::Paris is in {=France#Yes. =%50%Europe####Of course.} today.\n");
        CHECK(diagnostic_lines(result.diagnostics) == Strings{
            "inline.gift:1:1: warning: the answer feedback of a short answer question is dropped: "
            "the bank keeps only the #### general feedback, as the explanation",
            "inline.gift:1:36: warning: short answer with weight 50% is dropped: only fully right "
            "answers are accepted",
        });
        REQUIRE(result.bank);
        const Question& typed = result.bank->questions[0];
        REQUIRE(typed.blanks[0].accepted_texts.size() == 1);
        CHECK(only_text(typed.explanation) == "Of course.");
    }
}

TEST_CASE("import_gift: missing words round trip through export_gift", "[import][gift][cloze]") {
    for (const char* sample : {"missing-word.gift", "all-constructs.gift"}) {
        INFO(sample);
        const ImportResult imported = import_gift(import_sample(sample), sample);
        REQUIRE(imported.bank);
        std::vector<Diagnostic> losses;
        const std::string exported = export_gift(*imported.bank, "en", &losses);
        CHECK(diagnostic_lines(losses) == Strings{});
        ImportResult round = import_gift(exported, sample);
        REQUIRE(round.bank);
        round.bank->title = imported.bank->title;   // from the file name, not the GIFT
        CHECK(bank_to_json(*round.bank) == bank_to_json(*imported.bank));
    }
    // Typed and numeric blanks: their answer feedback was the explanation, written as ####.
    const ImportResult imported = import_gift(import_sample("missing-word.gift"), "missing-word.gift");
    REQUIRE(imported.bank);
    const std::string exported = export_gift(*imported.bank, "en");
    CHECK(exported.find("::mercury::Mercury is the {\n=smallest#Right\\: it is barely larger than "
                        "the Moon.\n") != std::string::npos);
    CHECK(exported.find("::moons::{\n=Phobos\n=Deimos\n####Both are small and irregular.\n} is one "
                        "of the two moons of Mars.\n") != std::string::npos);
    CHECK(exported.find("::dice::A die shows a number from {\n#1..6\n####It has six faces.\n} on "
                        "each throw") != std::string::npos);
}

TEST_CASE("export_gift: a cloze question GIFT cannot say is left out or loses a detail, and says "
          "which", "[import][gift][cloze]") {
    const char* const bank_json = R"({"format": "imquiz-bank", "version": 1, "id": "cloze",
      "title": "Cloze", "languages": ["en"], "defaultLanguage": "en", "questions": [
      {"id": "two", "type": "cloze", "prompt": "{{a}} and {{b}}.", "explanation": "E.",
       "blanks": [{"id": "a", "accept": ["x"]}, {"id": "b", "accept": ["y"]}]},
      {"id": "unit", "type": "cloze", "prompt": "It weighs {{mass}} in all.", "explanation": "E.",
       "blanks": [{"id": "mass", "answer": {"value": 5}, "unit": "kg", "feedback": "Five."}]},
      {"id": "last", "type": "cloze", "prompt": "The answer is {{blank}}", "explanation": "E.",
       "blanks": [{"id": "blank", "choices": [{"id": "yes", "text": "yes", "correct": true},
                                              {"id": "n", "text": "no"}]}]}]})";
    const BankLoadResult loaded = load_bank(bank_json, "cloze.json");
    REQUIRE(loaded.bank);
    std::vector<Diagnostic> losses;
    const std::string exported = export_gift(*loaded.bank, "en", &losses);
    Strings paths;
    for (const Diagnostic& loss : losses)
        paths.push_back(loss.path + ": " + loss.message);
    CHECK(paths == Strings{
        "questions[0]: GIFT's missing-word questions have one blank: a cloze question with 2 "
        "blanks is left out",
        "questions[1].blanks[0].unit: GIFT has no units: the unit is left out",
        "questions[1].blanks[0].id: GIFT has no blank ids: importing this file names the blank "
        "\"blank\", so learners' progress on the question would not carry over",
        "questions[1].blanks[0].feedback: GIFT has no feedback for a blank: it is left out",
        "questions[2].blanks[0].choices: GIFT has no choice ids: importing this file makes them "
        "from the texts, so learners' progress on the question would not carry over",
        "questions[2].blanks[0]: the blank ends the prompt: GIFT reads answers at the end of the "
        "text as a single choice question, not a missing word",
    });
    CHECK(exported.find("::two::") == std::string::npos);
    CHECK(exported.find("::unit::It weighs {\n#5\n####E.\n} in all.\n") != std::string::npos);
    const ImportResult again = import_gift(exported, "cloze.gift");
    REQUIRE(again.bank);
    REQUIRE(again.bank->questions.size() == 2);
    CHECK(again.bank->questions[0].type == QuestionType::Cloze);
    CHECK(again.bank->questions[1].type == QuestionType::SingleChoice);
}
