// Authoring (issue 16): bank -> Moodle XML. The round trip Moodle XML -> bank -> Moodle XML ->
// bank on every sample that imports, the README's example banks exported and read back, hostile
// text that must stay text, hints with their tries and penalty, and what Moodle XML cannot hold
// (reported as losses, by bank field).
#include "import_test_support.h"
#include "readme_examples.h"

#include "engine/bank_loader.h"
#include "engine/bank_writer.h"
#include "engine/import/import.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

using namespace imquiz;
using imquiz::testing::diagnostic_lines;
using imquiz::testing::read_text_file;
using imquiz::testing::readme_example;
using Strings = std::vector<std::string>;

namespace {

Bank import_valid_xml(const std::string& xml, const std::string& file_name = "x.xml") {
    const ImportResult result = import_moodle_xml(xml, file_name, {});
    INFO(xml);
    for (const std::string& line : diagnostic_lines(result.diagnostics))
        UNSCOPED_INFO(line);
    REQUIRE(result.bank);
    return *result.bank;
}

Bank load_valid(const std::string& json, const std::string& file_name) {
    const BankLoadResult result = load_bank(json, file_name);
    for (const std::string& line : diagnostic_lines(result.diagnostics))
        UNSCOPED_INFO(line);
    REQUIRE(result.bank);
    return *result.bank;
}

Bank readme_bank(const std::string& name) {
    const std::string json = readme_example(
        read_text_file(std::string(IMQUIZ_SOURCE_DIR) + "/quizzes/README.md"), name);
    REQUIRE_FALSE(json.empty());
    return load_valid(json, "README.json");
}

std::string number(double value) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return buffer;
}

// What decides a question's answers, in the texts of `language`: its id and type, every choice's
// text (right ones starred), the true/false answer, the numbers accepted, the first accepted text,
// each item's pair, a cloze text's pieces and each blank's answers. Ids Moodle XML cannot keep
// (choices, items, blanks) are not in it.
std::string summary(const Bank& bank, const Question& question, const std::string& language) {
    const auto text = [&](const LocalizedText& value) { return bank.text(value, language); };
    const auto numbers = [&](const NumericAnswer& answer) {
        return number(answer.lowest()) + ".." + number(answer.highest());
    };
    const auto choices = [&](const std::vector<Choice>& list) {
        std::string result;
        for (const Choice& choice : list)
            result += text(choice.text) + (choice.correct ? "*" : "") + "|";
        return result;
    };
    std::string result = question.id + " " + std::string(to_string(question.type)) + ": ";
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice:
    case QuestionType::Ordering: result += choices(question.choices); break;
    case QuestionType::TrueFalse: result += question.true_false_answer ? "true" : "false"; break;
    case QuestionType::Numeric: result += numbers(question.numeric_answer); break;
    case QuestionType::ShortText: result += text(question.accepted_texts.at(0)); break;
    case QuestionType::Matching:
        for (const MatchItem& item : question.match_items)
            result += text(item.text) + " -> " + text(question.find_choice(item.answer_id)->text) + "|";
        break;
    case QuestionType::Cloze:
        for (const ClozePiece& piece : split_cloze(text(question.prompt))) {
            result += piece.text;
            const Blank* blank = question.find_blank(piece.blank_id);
            if (blank == nullptr)
                continue;
            result += "[";
            if (blank->kind == Blank::Kind::Options)
                result += choices(blank->options);
            else if (blank->kind == Blank::Kind::Typed)
                result += text(blank->accepted_texts.at(0));
            else
                result += numbers(blank->numeric_answer);
            result += "]";
        }
        break;
    }
    return result;
}

// The bank exported in `language` and imported back under it has the same questions.
void check_read_back(const Bank& bank, const std::string& language) {
    std::vector<Diagnostic> losses;
    const std::string xml = export_moodle_xml(bank, language, &losses);
    ImportOptions options;
    options.language = language;
    const ImportResult result = import_moodle_xml(xml, bank.id + ".xml", options);
    for (const std::string& line : diagnostic_lines(result.diagnostics))
        UNSCOPED_INFO(line);
    INFO(xml);
    REQUIRE(result.bank);
    const Bank& back = *result.bank;
    CHECK(back.text_format == bank.text_format);
    REQUIRE(back.questions.size() == bank.questions.size());
    for (std::size_t i = 0; i < bank.questions.size(); ++i) {
        CHECK(summary(back, back.questions[i], language) == summary(bank, bank.questions[i], language));
        CHECK(back.text(back.questions[i].explanation, language) ==
              bank.text(bank.questions[i].explanation, language));
        CHECK(back.questions[i].tags == bank.questions[i].tags);
    }
}

bool contains(const Strings& lines, const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
}

} // namespace

TEST_CASE("export_moodle_xml: round trip Moodle XML -> bank -> Moodle XML -> bank gives the same bank",
          "[export][moodle-xml]") {
    namespace fs = std::filesystem;
    std::vector<fs::path> samples;
    for (const auto& entry : fs::directory_iterator(std::string(IMQUIZ_SOURCE_DIR) + "/tests/data/import"))
        if (entry.path().extension() == ".xml")
            samples.push_back(entry.path());
    std::sort(samples.begin(), samples.end());
    int round_trips = 0;
    for (const fs::path& sample : samples) {
        const std::string name = sample.filename().string();
        INFO("sample tests/data/import/" << name);
        const ImportResult first = import_moodle_xml(read_text_file(sample.string()), name, {});
        if (!first.bank)
            continue;   // a sample of errors
        ++round_trips;
        std::vector<Diagnostic> losses;
        const std::string exported = export_moodle_xml(*first.bank, "en", &losses);
        for (const std::string& line : diagnostic_lines(losses))
            CHECK(line.rfind(":images: warning:", 0) == 0);   // Moodle would need the files in it
        const Bank second = import_valid_xml(exported, name);
        CHECK(bank_to_json(second) == bank_to_json(*first.bank));
        CHECK(export_moodle_xml(second, "en") == exported);
    }
    CHECK(round_trips >= 3);
}

TEST_CASE("export_moodle_xml: the README's example banks read back with the same questions",
          "[export][moodle-xml]") {
    SECTION("the full bank, in each of its languages") {
        const Bank bank = readme_bank("full bank");
        for (const std::string& language : bank.languages) {
            INFO("language " << language);
            check_read_back(bank, language);
        }
    }
    SECTION("the Markdown bank: its texts stay Markdown") {
        const Bank bank = readme_bank("markdown bank");
        REQUIRE(bank.text_format == TextFormat::Markdown);
        check_read_back(bank, bank.default_language);
        CHECK(export_moodle_xml(bank, bank.default_language).find("<questiontext format=\"markdown\">") !=
              std::string::npos);
    }
}

TEST_CASE("export_moodle_xml: the text written", "[export][moodle-xml]") {
    const Bank bank = import_valid_xml(
        "<quiz>\n"
        "<question type=\"category\"><category><text>$course$/top/Basics</text></category></question>\n"
        "<question type=\"multichoice\"><name><text>Primes</text></name>\n"
        "<questiontext format=\"plain_text\"><text>Primes?</text></questiontext>\n"
        "<single>false</single>\n"
        "<answer fraction=\"50\" format=\"plain_text\"><text>2</text><feedback format=\"plain_text\"><text>Yes.</text></feedback></answer>\n"
        "<answer fraction=\"50\" format=\"plain_text\"><text>3</text></answer>\n"
        "<answer fraction=\"0\" format=\"plain_text\"><text>4</text></answer>\n"
        "</question>\n"
        "<question type=\"cloze\"><name><text>Moon</text></name>\n"
        "<questiontext format=\"plain_text\"><text>{1:SHORTANSWER:=Moon#Right} is {1:NUMERICAL:=384400:1000} km away.</text></questiontext>\n"
        "</question>\n"
        "</quiz>\n",
        "small.xml");
    CHECK(export_moodle_xml(bank, "en") ==
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<!-- ImQuiz bank &quot;small&quot;: Small -->\n"
          "<!-- Texts in &quot;en&quot;. Read back with: quizc import - -from moodle-xml FILE - -lang en - -id small -->\n"
          "<quiz>\n"
          "  <question type=\"category\">\n"
          "    <category><text>$course$/top/basics</text></category>\n"
          "  </question>\n"
          "  <question type=\"multichoice\">\n"
          "    <name><text>primes</text></name>\n"
          "    <questiontext format=\"plain_text\"><text>Primes?</text></questiontext>\n"
          "    <generalfeedback format=\"plain_text\"><text></text></generalfeedback>\n"
          "    <defaultgrade>1</defaultgrade>\n"
          "    <penalty>0.3333333</penalty>\n"
          "    <single>false</single>\n"
          "    <shuffleanswers>false</shuffleanswers>\n"
          "    <answernumbering>abc</answernumbering>\n"
          "    <answer fraction=\"50\" format=\"plain_text\"><text>2</text><feedback format=\"plain_text\"><text>Yes.</text></feedback></answer>\n"
          "    <answer fraction=\"50\" format=\"plain_text\"><text>3</text></answer>\n"
          "    <answer fraction=\"-50\" format=\"plain_text\"><text>4</text></answer>\n"
          "  </question>\n"
          "  <question type=\"cloze\">\n"
          "    <name><text>moon</text></name>\n"
          "    <questiontext format=\"plain_text\"><text>{1:SHORTANSWER:=Moon#Right} is {1:NUMERICAL:=384400:1000} km away.</text></questiontext>\n"
          "    <generalfeedback format=\"plain_text\"><text></text></generalfeedback>\n"
          "    <defaultgrade>1</defaultgrade>\n"
          "    <penalty>0.3333333</penalty>\n"
          "  </question>\n"
          "</quiz>\n");
}

TEST_CASE("export_moodle_xml: hostile text comes back as written and never becomes markup",
          "[export][moodle-xml]") {
    const std::string hostile = "a ]]> b <script>alert(1)</script> {1:SA:=x} & c &amp; \\\" ' ~#}";
    const std::string json =
        "{\"format\": \"imquiz-bank\", \"version\": 1, \"id\": \"hostile\", \"title\": \"Hostile\", \"languages\": [\"en\"],"
        " \"defaultLanguage\": \"en\", \"questions\": ["
        "{\"id\": \"q1\", \"type\": \"single_choice\", \"prompt\": \"" + hostile + "\","
        " \"explanation\": \"]]>]]>\", \"choices\": ["
        "{\"id\": \"a\", \"text\": \"<b>a</b>\", \"correct\": true, \"feedback\": \"</text></answer>\"},"
        "{\"id\": \"b\", \"text\": \"&lt;\"}]},"
        "{\"id\": \"q2\", \"type\": \"cloze\", \"prompt\": \"x {{blank-1}} y {{blank-2}}\", \"blanks\": ["
        "{\"id\": \"blank-1\", \"choices\": ["
        "{\"id\": \"a-b\", \"text\": \"a}~#b\", \"correct\": true, \"feedback\": \"#~}<\"},"
        "{\"id\": \"c\", \"text\": \"=c\"}, {\"id\": \"d\", \"text\": \"%d\"}]},"
        "{\"id\": \"blank-2\", \"accept\": [\"}{\"]}]}]}";
    const Bank bank = load_valid(json, "hostile.json");
    const std::string xml = export_moodle_xml(bank, "en");
    CHECK(xml.find("<script>") == std::string::npos);
    CHECK(xml.find("]]>") == std::string::npos);
    CHECK(xml.find("<b>") == std::string::npos);
    const Bank back = import_valid_xml(xml, "hostile.xml");
    const std::string expected_prompt = "a ]]> b <script>alert(1)</script> {1:SA:=x} & c &amp; \" ' ~#}";
    CHECK(back.text(back.questions[0].prompt, "en") == expected_prompt);
    CHECK(back.text(back.questions[0].explanation, "en") == "]]>]]>");
    CHECK(back.text(back.questions[0].choices[0].text, "en") == "<b>a</b>");
    CHECK(back.text(back.questions[0].choices[0].feedback, "en") == "</text></answer>");
    CHECK(back.text(back.questions[0].choices[1].text, "en") == "&lt;");
    const Question& cloze = back.questions[1];
    REQUIRE(cloze.blanks.size() == 2);
    CHECK(back.text(cloze.prompt, "en") == "x {{blank-1}} y {{blank-2}}");
    REQUIRE(cloze.blanks[0].options.size() == 3);
    CHECK(back.text(cloze.blanks[0].options[0].text, "en") == "a}~#b");
    CHECK(cloze.blanks[0].options[0].correct);
    CHECK(back.text(cloze.blanks[0].options[0].feedback, "en") == "#~}<");
    CHECK(back.text(cloze.blanks[0].options[1].text, "en") == "=c");
    CHECK_FALSE(cloze.blanks[0].options[1].correct);
    CHECK(back.text(cloze.blanks[0].options[2].text, "en") == "%d");
    CHECK_FALSE(cloze.blanks[0].options[2].correct);
    REQUIRE(cloze.blanks[1].accepted_texts.size() == 1);
    CHECK(back.text(cloze.blanks[1].accepted_texts[0], "en") == "}{");
}

TEST_CASE("export_moodle_xml: what Moodle XML cannot hold is reported as a loss",
          "[export][moodle-xml]") {
    SECTION("the README's full bank") {
        std::vector<Diagnostic> losses;
        export_moodle_xml(readme_bank("full bank"), "en", &losses);
        const Strings lines = diagnostic_lines(losses);
        for (const std::string& line : lines)
            UNSCOPED_INFO(line);
        CHECK(contains(lines, ":languages: warning: Moodle XML holds one language here: only the "
                              "\"en\" texts are exported"));
        CHECK(contains(lines, ":settings.passPercent: warning: Moodle XML has no pass mark: it is "
                              "left out"));
        CHECK(contains(lines, ":questions[4].answer: warning: Moodle XML has no ranges: 1492..1500 "
                              "is written as its midpoint with half its width as the tolerance"));
        CHECK(contains(lines, ":questions[6].choices: warning: the importer lists the answers in the "
                              "order the items use them: they come back in another order"));
        CHECK(contains(lines, ":questions[8].blanks[0].id: warning: Moodle XML has no blank ids: "
                              "importing this file names the blank \"blank-1\", so learners' "
                              "progress on the question would not carry over"));
        CHECK(contains(lines, ":questions[0].hints[0].cost: warning: Moodle's hints cost nothing "
                              "of their own (each try after the first costs the penalty): the cost "
                              "0.1 is left out"));
        CHECK(contains(lines, ":questions[0].maxTries: warning: Moodle gives a question one try per "
                              "hint plus one: importing this file gives it 2 tries, not 1 try"));
        CHECK(contains(lines, ":feedbackRanges: warning: a Moodle question file has no overall "
                              "feedback (a Moodle quiz has it): the score ranges are left out"));
        for (const Diagnostic& loss : losses)
            CHECK_FALSE(loss.path.empty());
    }
    SECTION("a would-be embedded answer in a cloze text, a blank's unit, settings") {
        Bank bank = import_valid_xml(
            "<quiz><question type=\"cloze\"><name><text>C</text></name>"
            "<questiontext format=\"plain_text\"><text>{1:NUMERICAL:=5} and {1:MULTICHOICE:=a~b}</text></questiontext>"
            "</question>"
            "<question type=\"truefalse\"><name><text>T</text></name>"
            "<questiontext format=\"plain_text\"><text>T?</text></questiontext>"
            "<answer fraction=\"100\"><text>true</text></answer></question></quiz>");
        bank.notes = "for authors";
        bank.settings.partial_credit = false;
        bank.settings.pool_size = 1;
        bank.settings.shuffle_choices = true;
        bank.questions[0].blanks[0].unit = LocalizedText::same_in_all_languages("kg");
        bank.questions[0].blanks[1].feedback = LocalizedText::same_in_all_languages("fb");
        std::vector<Diagnostic> losses;
        export_moodle_xml(bank, "en", &losses);
        CHECK(diagnostic_lines(losses) == Strings{
            ":notes: warning: Moodle XML has no author notes: they are left out",
            ":settings.poolSize: warning: Moodle XML has no pool size: it is left out",
            ":settings.partialCredit: warning: Moodle grades multiple choice, matching, ordering "
            "and cloze questions in parts: importing this file turns partialCredit on",
            ":questions[0].blanks[0].unit: warning: Moodle's embedded numbers have no unit: the "
            "unit is left out",
            ":questions[0].blanks[1].feedback: warning: Moodle's embedded choices have feedback per "
            "choice only: the blank's feedback is left out",
        });

        bank.questions[0].prompt =
            LocalizedText::same_in_all_languages("{1:SA:=x} {{blank-1}} {{blank-2}}");
        losses.clear();
        const std::string xml = export_moodle_xml(bank, "en", &losses);
        CHECK(contains(diagnostic_lines(losses),
                       ":questions[0].prompt: warning: the text holds \"{n:TYPE:\", which Moodle "
                       "reads as an embedded answer: the question is left out"));
        CHECK(import_valid_xml(xml).questions.size() == 1);
    }
}

TEST_CASE("export_moodle_xml: hints, tries and penalties", "[export][moodle-xml][hints]") {
    SECTION("imported hints and penalties come back the same") {
        const std::string xml =
            "<quiz>\n"
            "<question type=\"multichoice\"><name><text>Bubble</text></name>\n"
            "<questiontext format=\"html\"><text>Which schedule?</text></questiontext>\n"
            "<generalfeedback format=\"html\"><text>Interleaving.</text></generalfeedback>\n"
            "<penalty>0.25</penalty>\n"
            "<answer fraction=\"100\"><text>Interleaved</text></answer>\n"
            "<answer fraction=\"0\"><text>GPipe</text></answer>\n"
            "<hint format=\"html\"><text><![CDATA[<p>Think of <strong>chunks</strong>.</p>]]></text></hint>\n"
            "<hint format=\"plain_text\"><text>More chunks, a smaller bubble.</text></hint>\n"
            "</question>\n"
            "<question type=\"truefalse\"><name><text>Default</text></name>\n"
            "<questiontext format=\"html\"><text>True?</text></questiontext>\n"
            "<generalfeedback format=\"html\"><text>It is.</text></generalfeedback>\n"
            "<penalty>0.3333333</penalty>\n"
            "<answer fraction=\"100\"><text>true</text></answer>\n"
            "<hint format=\"html\"><text>Read it again.</text></hint>\n"
            "</question>\n"
            "</quiz>\n";
        const Bank first = import_valid_xml(xml, "hints.xml");
        REQUIRE(first.questions.size() == 2);
        REQUIRE(first.questions[0].hints.size() == 2);
        std::vector<Diagnostic> losses;
        const std::string exported = export_moodle_xml(first, "en", &losses);
        CHECK(diagnostic_lines(losses) == Strings{});
        CHECK(exported.find("    <penalty>0.25</penalty>\n") != std::string::npos);
        CHECK(exported.find("    <penalty>0.3333333</penalty>\n") != std::string::npos);
        CHECK(exported.find("    <hint format=\"markdown\"><text>Think of **chunks**.</text></hint>\n"
                            "    <hint format=\"markdown\"><text>More chunks, a smaller bubble.</text></hint>\n") !=
              std::string::npos);
        const Bank second = import_valid_xml(exported, "hints.xml");
        CHECK(bank_to_json(second) == bank_to_json(first));
        const Question& bubble = second.questions[0];
        REQUIRE(bubble.hints.size() == 2);
        CHECK(bubble.hints[1].text.get("en", "en") == "More chunks, a smaller bubble.");
        CHECK(bubble.max_tries == 3);
        CHECK(bubble.try_penalty == 0.25);
        CHECK(second.questions[1].max_tries == 2);
        CHECK_FALSE(second.questions[1].try_penalty);
    }
    SECTION("what Moodle cannot hold: hint costs, tries apart from hints, bank-wide settings, ranges, an exam") {
        const Bank bank = load_valid(
            R"({"format": "imquiz-bank", "version": 1, "id": "tries", "title": "Tries",
                "languages": ["en"], "defaultLanguage": "en",
                "settings": {"maxTries": 2, "tryPenalty": 0.5},
                "questions": [
                  {"id": "costly", "type": "true_false", "prompt": "Costly?", "explanation": "Yes.",
                   "answer": true, "maxTries": 5,
                   "hints": [{"text": "First.", "cost": 0.1}, {"text": "Second."}]},
                  {"id": "own-penalty", "type": "true_false", "prompt": "Own?", "explanation": "Yes.",
                   "answer": true, "tryPenalty": 0.2},
                  {"id": "one-hint", "type": "true_false", "prompt": "One?", "explanation": "Yes.",
                   "answer": true, "hints": [{"text": "Only."}]}],
                "feedbackRanges": [{"from": 0, "to": 100, "text": "Done."}]})",
            "tries.json");
        std::vector<Diagnostic> losses;
        const std::string xml = export_moodle_xml(bank, "en", &losses);
        CHECK(diagnostic_lines(losses) == Strings{
            ":settings.maxTries: warning: Moodle XML has no tries setting: Moodle gives a question "
            "one try per hint plus one, and so does importing this file",
            ":settings.tryPenalty: warning: Moodle XML has no bank-wide penalty: it is written as "
            "each question's <penalty>, which importing this file keeps on questions with hints",
            ":feedbackRanges: warning: a Moodle question file has no overall feedback (a Moodle quiz "
            "has it): the score ranges are left out",
            ":questions[0].hints[0].cost: warning: Moodle's hints cost nothing of their own (each try "
            "after the first costs the penalty): the cost 0.1 is left out",
            ":questions[0].maxTries: warning: Moodle gives a question one try per hint plus one: "
            "importing this file gives it 3 tries, not 5 tries",
            ":questions[1].tryPenalty: warning: written as <penalty>, which importing this file keeps "
            "only on a question with hints (Moodle's tries come with them): it is left out",
        });
        // The bank's penalty on every question without its own.
        CHECK(xml.find("<name><text>costly</text></name>") < xml.find("<penalty>0.5</penalty>"));
        CHECK(xml.find("<penalty>0.2</penalty>") != std::string::npos);
        const Bank back = import_valid_xml(xml, "tries.xml");
        REQUIRE(back.questions.size() == 3);
        CHECK(back.questions[0].hints.size() == 2);
        CHECK(back.questions[0].hints[0].cost == 0);
        CHECK(back.questions[0].max_tries == 3);
        CHECK(back.questions[0].try_penalty == 0.5);
        CHECK(back.questions[1].hints.empty());
        CHECK(max_tries(back, back.questions[1]) == 1);
        CHECK(back.questions[2].max_tries == 2);
        CHECK(back.questions[2].try_penalty == 0.5);
        CHECK(back.feedback_ranges.empty());
    }
    SECTION("an exam is played as practice once imported: said") {
        const Bank bank = load_valid(
            R"({"format": "imquiz-bank", "version": 1, "id": "exam", "title": "Exam",
                "languages": ["en"], "defaultLanguage": "en", "settings": {"mode": "exam", "timeLimitMinutes": 20, "maxAttempts": 2},
                "questions": [{"id": "q", "type": "true_false", "prompt": "Q?", "explanation": "Yes.", "answer": true}]})",
            "exam.json");
        std::vector<Diagnostic> losses;
        export_moodle_xml(bank, "en", &losses);
        CHECK(diagnostic_lines(losses) == Strings{
            ":settings.mode: warning: a Moodle question file has no quiz mode (a Moodle quiz chooses its "
            "question behaviour): importing this file gives a practice bank",
            ":settings.timeLimitMinutes: warning: a Moodle question file has no time limit (set it on the Moodle "
            "quiz): it is left out",
            ":settings.maxAttempts: warning: a Moodle question file has no attempts allowed (set them on the "
            "Moodle quiz): it is left out",
        });
    }
}
