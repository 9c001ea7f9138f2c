// Authoring (issue 16): Moodle XML -> bank. Our samples in the shape of Moodle's export
// (tests/data/import/moodle-*.xml), every type read and skipped, HTML to Markdown or plain text,
// hints with the tries and penalty they bring, embedded images, the problems reported with their
// exact text and line, and the example of docs/authoring.md.
#include "import_test_support.h"

#include "engine/bank_loader.h"
#include "engine/bank_writer.h"
#include "engine/image_file.h"
#include "engine/import/import.h"
#include "engine/session.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace imquiz;
using imquiz::testing::correct_texts;
using imquiz::testing::diagnostic_lines;
using imquiz::testing::import_sample;
using imquiz::testing::markdown_blocks;
using imquiz::testing::only_text;
using imquiz::testing::read_text_file;
using Strings = std::vector<std::string>;

namespace {

Strings texts_of(const std::vector<Choice>& choices) {
    Strings texts;
    for (const Choice& choice : choices)
        texts.push_back(only_text(choice.text));
    return texts;
}

ImportResult import_inline(const std::string& questions) {
    return import_moodle_xml("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n" + questions +
                                 "</quiz>\n",
                             "inline.xml", {});
}

// A question of `type` with an HTML question text, and `rest` inside it.
std::string question(const std::string& type, const std::string& name, const std::string& html,
                     const std::string& rest) {
    return "<question type=\"" + type + "\">\n<name><text>" + name +
           "</text></name>\n<questiontext format=\"html\"><text><![CDATA[" + html +
           "]]></text></questiontext>\n" +
           "<generalfeedback format=\"html\"><text>Because.</text></generalfeedback>\n" + rest +
           "</question>\n";
}

const std::string two_answers =
    "<answer fraction=\"100\"><text>Yes</text></answer>\n"
    "<answer fraction=\"0\"><text>No</text></answer>\n";

} // namespace

TEST_CASE("import_moodle_xml: every type it reads, and the ones it skips", "[import][moodle-xml]") {
    const ImportResult result =
        import_moodle_xml(import_sample("moodle-all-types.xml"), "moodle-all-types.xml", {});
    REQUIRE(result.bank);
    const Bank& bank = *result.bank;
    CHECK(bank.id == "moodle-all-types");
    CHECK(bank.text_format == TextFormat::Markdown);
    CHECK(bank.settings.partial_credit);
    CHECK(bank.settings.shuffle_choices);
    REQUIRE(bank.questions.size() == 9);

    const Question& single = bank.questions[0];
    CHECK(single.id == "all-reduce");
    CHECK(single.type == QuestionType::SingleChoice);
    CHECK(only_text(single.prompt) == "Which collective does **DDP** run on the gradients?");
    CHECK(only_text(single.explanation) == "Every replica needs the *sum* of all gradients.");
    CHECK(texts_of(single.choices) == Strings{"All-reduce", "Broadcast", "Gather"});
    CHECK(correct_texts(single) == Strings{"All-reduce"});
    CHECK(only_text(single.choices[0].feedback) == "Right: a sum, everywhere.");
    CHECK(single.choices[1].feedback.empty());
    CHECK(single.tags == Strings{"data-parallelism", "collectives"});

    const Question& multiple = bank.questions[1];
    CHECK(multiple.id == "what-zero-shards");
    CHECK(multiple.type == QuestionType::MultipleChoice);
    CHECK(only_text(multiple.prompt) ==
          "Which states does ZeRO stage\xC2\xA0" "3 shard across ranks?\n\n"
          "- Pick every one.\n- Wrong picks cost.");
    CHECK(correct_texts(multiple) == Strings{"Optimizer states", "Parameters"});

    const Question& true_false = bank.questions[2];
    CHECK(true_false.type == QuestionType::TrueFalse);
    CHECK(true_false.true_false_answer);
    CHECK(only_text(true_false.prompt) == "Plain DDP synchronizes gradients on every backward pass.");
    // No general feedback: the answer feedback is the explanation, as GIFT's importer does.
    CHECK(only_text(true_false.explanation) == "Unless you use `no_sync()`.");

    const Question& short_text = bank.questions[3];
    CHECK(short_text.type == QuestionType::ShortText);
    REQUIRE(short_text.accepted_texts.size() == 1);
    CHECK(only_text(short_text.accepted_texts[0]) == "NCCL");

    const Question& numeric = bank.questions[4];
    CHECK(numeric.type == QuestionType::Numeric);
    CHECK(numeric.numeric_answer.value == 20);
    CHECK(numeric.numeric_answer.tolerance == 0.5);
    CHECK(only_text(numeric.unit) == "%");
    CHECK(only_text(numeric.prompt) ==
          "With $p = 4$ stages and $m = 12$ micro-batches, what is the bubble fraction "
          "$\\frac{p-1}{m+p-1}$ in percent?");
    CHECK(only_text(numeric.explanation) == "$$\\frac{3}{15} = 0.2$$");

    const Question& matching = bank.questions[5];
    CHECK(matching.type == QuestionType::Matching);
    REQUIRE(matching.match_items.size() == 3);
    CHECK(texts_of(matching.choices) ==
          Strings{"The batch", "Each layer's matrices", "The layers", "The learning rate"});
    CHECK(only_text(matching.match_items[1].text) == "Tensor parallelism");
    CHECK(matching.find_choice(matching.match_items[1].answer_id) != nullptr);
    CHECK(only_text(matching.find_choice(matching.match_items[1].answer_id)->text) ==
          "Each layer's matrices");

    const Question& ordering = bank.questions[6];
    CHECK(ordering.type == QuestionType::Ordering);
    CHECK(texts_of(ordering.choices) == Strings{"Forward pass", "Backward pass",
                                                 "All-reduce the gradients", "Optimizer step"});

    const Question& picture = bank.questions[7];
    CHECK(only_text(picture.prompt) ==
          "Which schedule is shown? ![Two ranks, four time steps](images/schedule-1.png)\n\n"
          "```python\nwith model.no_sync():\n    loss.backward()\n```\n\n"
          "See [the DDP notes](https://pytorch.org/docs/stable/notes/ddp.html).");
    CHECK(correct_texts(picture) == Strings{"1F1B"});
    REQUIRE(result.files.size() == 1);
    CHECK(result.files[0].path == "images/schedule-1.png");
    const ImageCheck image = check_image_file(result.files[0].bytes, result.files[0].bytes.size());
    REQUIRE(image.file);
    CHECK(image.file->format == ImageFile::Format::Png);
    CHECK(image.file->width == 2);
    REQUIRE(bank.images.size() == 1);
    CHECK(bank.images[0].source == "images/schedule-1.png");

    const Question& cloze = bank.questions[8];
    CHECK(cloze.type == QuestionType::Cloze);
    CHECK(only_text(cloze.prompt) == "DDP uses {{blank-1}}.");
    REQUIRE(cloze.blanks.size() == 1);
    CHECK(cloze.blanks[0].kind == Blank::Kind::Typed);
}

TEST_CASE("import_moodle_xml: warnings name the skipped questions and what was dropped",
          "[import][moodle-xml]") {
    const ImportResult result =
        import_moodle_xml(import_sample("moodle-all-types.xml"), "moodle-all-types.xml", {});
    CHECK(diagnostic_lines(result.diagnostics) == Strings{
        "moodle-all-types.xml:60:3: warning: missing explanation",
        "moodle-all-types.xml:110:3: warning: missing explanation",
        "moodle-all-types.xml:125:5: warning: the answer \"MPI\" (fraction 50%) is dropped: only "
        "fully right answers are accepted",
        "moodle-all-types.xml:152:7: warning: the unit \"fraction\" is dropped: a bank's numeric "
        "answer has one unit, with the multiplier 1",
        "moodle-all-types.xml:160:3: warning: missing explanation",
        "moodle-all-types.xml:198:3: warning: missing explanation",
        "moodle-all-types.xml:225:3: warning: missing explanation",
        "moodle-all-types.xml:243:5: warning: this answer's fraction 50% counts as wrong: a single "
        "choice question has one right answer",
        "moodle-all-types.xml:249:3: warning: description \"Read this first\" (text without a "
        "question) is not supported: skipped",
        "moodle-all-types.xml:259:3: warning: essay question \"Explain ZeRO\" is not supported: "
        "skipped",
        "moodle-all-types.xml:269:3: warning: missing explanation",
    });
}

TEST_CASE("import_moodle_xml: right answers of different weights are scored as equal shares, "
          "and said so", "[import][moodle-xml]") {
    const ImportResult result = import_inline(question(
        "multichoice", "Weights", "<p>Which?</p>",
        "<single>false</single>\n<answer fraction=\"70\"><text>A</text></answer>\n"
        "<answer fraction=\"30\"><text>B</text></answer>\n<answer fraction=\"-100\"><text>C</text></answer>\n"));
    CHECK(diagnostic_lines(result.diagnostics) ==
          Strings{"inline.xml:3:1: warning: the right answers have different fractions: ImQuiz's "
                  "partial credit counts every right answer the same (docs/authoring.md)"});
    REQUIRE(result.bank);
    CHECK(result.bank->settings.partial_credit);
    CHECK(correct_texts(result.bank->questions[0]) == Strings{"A", "B"});
}

TEST_CASE("import_moodle_xml: HTML with nothing Markdown needs makes a plain bank",
          "[import][moodle-xml]") {
    const ImportResult result =
        import_moodle_xml(import_sample("moodle-plain.xml"), "moodle-plain.xml", {});
    CHECK(diagnostic_lines(result.diagnostics) == Strings{});
    REQUIRE(result.bank);
    const Bank& bank = *result.bank;
    CHECK(bank.text_format == TextFormat::Plain);
    REQUIRE(bank.questions.size() == 1);
    CHECK(only_text(bank.questions[0].prompt) ==
          "A rank is one process.\nIs 2 * 3 = 6 ranks more than #5?\n\nAnswer & see.");
    CHECK(only_text(bank.questions[0].explanation) == "Yes: 6 > 5.");
    CHECK(bank.questions[0].tags == Strings{"warm-up"});
    CHECK_FALSE(bank.settings.partial_credit);
    CHECK(result.files.empty());
}

TEST_CASE("import_moodle_xml: a Markdown bank escapes the marks of its plain texts",
          "[import][moodle-xml]") {
    const ImportResult result = import_inline(
        question("multichoice", "Stars", "<p>Is <em>2 * 3</em> a product?</p>",
                 "<answer fraction=\"100\" format=\"plain_text\"><text>2 * 3 = 6</text></answer>\n"
                 "<answer fraction=\"0\" format=\"html\"><text><![CDATA[<p>[not] a_b</p>]]></text></answer>\n"));
    REQUIRE(result.bank);
    CHECK(result.bank->text_format == TextFormat::Markdown);
    const Question& stars = result.bank->questions[0];
    CHECK(only_text(stars.prompt) == "Is *2 \\* 3* a product?");
    CHECK(texts_of(stars.choices) == Strings{"2 \\* 3 = 6", "\\[not\\] a\\_b"});
}

TEST_CASE("import_moodle_xml: spans styled bold or italic are emphasis, other spans their text",
          "[import][moodle-xml]") {
    const ImportResult result = import_inline(question(
        "truefalse", "Styled",
        "<p>An <span style=\"font-style: italic;\">italic</span>, a <span "
        "style=\"font-weight:bold\">bold</span> and a <span style=\"color: red\">red</span> word.</p>",
        "<answer fraction=\"100\"><text>true</text></answer>\n"));
    REQUIRE(result.bank);
    CHECK(only_text(result.bank->questions[0].prompt) ==
          "An *italic*, a **bold** and a red word.");
}

TEST_CASE("import_moodle_xml: scoring of what it imports", "[import][moodle-xml]") {
    const ImportResult result =
        import_moodle_xml(import_sample("moodle-all-types.xml"), "moodle-all-types.xml", {});
    REQUIRE(result.bank);
    const Bank& bank = *result.bank;
    // The multiple choice, fully right, half right (one of two), and a wrong pick cancelling it.
    auto score = [&](const std::string& id, std::vector<std::string> picks) {
        Session session = start_session(bank, 1);
        while (current_question(session, bank) != nullptr && current_question(session, bank)->id != id)
            next(session, 0);
        REQUIRE(current_question(session, bank) != nullptr);
        Response response;
        response.choice_ids = std::move(picks);
        return check(session, bank, response, 0).score;
    };
    const Question& multiple = bank.questions[1];
    const std::string optimizer = multiple.choices[0].id, parameters = multiple.choices[1].id,
                      loader = multiple.choices[2].id;
    CHECK(score(multiple.id, {optimizer, parameters}) == 1.0);
    CHECK(score(multiple.id, {optimizer}) == 0.5);
    CHECK(score(multiple.id, {optimizer, loader}) == 0.0);
}

TEST_CASE("import_moodle_xml: problems, with the line of the element", "[import][moodle-xml]") {
    SECTION("not well-formed") {
        const ImportResult result =
            import_moodle_xml(import_sample("malformed-moodle.xml"), "malformed-moodle.xml", {});
        CHECK_FALSE(result.bank);
        CHECK(diagnostic_lines(result.diagnostics) ==
              Strings{"malformed-moodle.xml:6:14: error: not well-formed XML: Opening and ending "
                      "tag mismatch: questiontext line 5 and question"});
    }
    SECTION("a DOCTYPE is refused before any entity is read") {
        const ImportResult result = import_moodle_xml(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE quiz [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b "
            "\"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n<quiz>&b;</quiz>\n",
            "doctype.xml", {});
        CHECK_FALSE(result.bank);
        CHECK(diagnostic_lines(result.diagnostics) ==
              Strings{"doctype.xml:2:1: error: the file has a DOCTYPE: a Moodle XML file has none, "
                      "and its entities are not read"});
    }
    SECTION("another root element") {
        const ImportResult result = import_moodle_xml("<?xml version=\"1.0\"?>\n<questions/>\n",
                                                      "other.xml", {});
        CHECK(diagnostic_lines(result.diagnostics) ==
              Strings{"other.xml:2:1: error: not a Moodle XML file: the root element is "
                      "<questions>, expected <quiz>"});
    }
    SECTION("a single choice without a fraction 100, an empty question text") {
        const ImportResult result = import_inline(
            question("multichoice", "None right", "<p>Which?</p>",
                     "<answer fraction=\"50\"><text>A</text></answer>\n"
                     "<answer fraction=\"0\"><text>B</text></answer>\n") +
            question("truefalse", "Empty", "<p> </p>", two_answers));
        CHECK_FALSE(result.bank);
        CHECK(diagnostic_lines(result.diagnostics) == Strings{
            "inline.xml:3:1: error: no answer has the fraction 100: a single choice question needs "
            "one right answer",
            "inline.xml:7:1: warning: this answer's fraction 50% counts as wrong: a single choice "
            "question has one right answer",
            "inline.xml:10:1: error: the question text of \"Empty\" is empty",
        });
    }
    SECTION("skipped types and dropped parts are warnings") {
        const ImportResult result = import_inline(
            question("essay", "Explain", "<p>Explain.</p>", "") +
            question("calculated", "Calc", "<p>{a} + {b}?</p>", "") +
            question("shortanswer", "Case", "<p>Name it.</p>",
                     "<usecase>1</usecase>\n<answer fraction=\"100\"><text>NCCL*</text></answer>\n"
                     "<answer fraction=\"50\"><text>MPI</text></answer>\n") +
            question("multichoice", "Link", "<p>See <a href=\"@@PLUGINFILE@@/notes.pdf\">notes</a> "
                                            "and <img src=\"https://example.org/x.png\" alt=\"x\"></p>",
                     two_answers) +
            question("wiki", "Unknown", "<p>?</p>", ""));
        REQUIRE(result.bank);
        CHECK(result.bank->questions.size() == 2);
        CHECK(only_text(result.bank->questions[1].prompt) == "See notes and x");
        CHECK(diagnostic_lines(result.diagnostics) == Strings{
            "inline.xml:3:1: warning: essay question \"Explain\" is not supported: skipped",
            "inline.xml:8:1: warning: calculated question \"Calc\" is not supported: skipped",
            "inline.xml:13:1: warning: case-sensitive matching is not supported: the answers are "
            "accepted in any case",
            "inline.xml:18:1: warning: the answer \"NCCL*\" has a * wildcard: it is accepted as "
            "written, star included",
            "inline.xml:19:1: warning: the answer \"MPI\" (fraction 50%) is dropped: only fully "
            "right answers are accepted",
            "inline.xml:23:1: warning: the link to \"@@PLUGINFILE@@/notes.pdf\" is kept as its "
            "text only: a bank links to http(s) addresses",
            "inline.xml:23:1: warning: the image \"https://example.org/x.png\" is not embedded in "
            "the file: shown as its alt text",
            "inline.xml:28:1: warning: unknown question type \"wiki\" (question \"Unknown\"): "
            "skipped",
        });
    }
}

TEST_CASE("import_moodle_xml: hints, and the tries and penalty that come with them",
          "[import][moodle-xml][hints]") {
    SECTION("hints in order, each text read in its format; penalty and tries only with hints") {
        const ImportResult result = import_inline(
            question("multichoice", "Hinted", "<p>Which?</p>",
                     "<penalty>0.1</penalty>\n" + two_answers +
                         "<hint format=\"html\"><text><![CDATA[<p>Think of <strong>chunks</strong>.</p>]]></text></hint>\n"
                         "<hint format=\"plain_text\"><text>2 * 3 is six.</text><shownumcorrect/><clearwrong/></hint>\n"
                         "<hint format=\"markdown\"><text>Use *both*.</text></hint>\n") +
            question("truefalse", "Default penalty", "<p>True?</p>",
                     "<penalty>0.3333333</penalty>\n<answer fraction=\"100\"><text>true</text></answer>\n"
                     "<hint><text><![CDATA[<p>It <em>is</em>.</p>]]></text></hint>\n") +
            question("truefalse", "No hints", "<p>True?</p>",
                     "<penalty>0.5</penalty>\n<answer fraction=\"100\"><text>true</text></answer>\n"));
        CHECK(diagnostic_lines(result.diagnostics) ==
              Strings{"inline.xml:11:1: warning: hint 2: <shownumcorrect/> and <clearwrong/> are not "
                      "kept: a bank's hint is its text only"});
        REQUIRE(result.bank);
        const Bank& bank = *result.bank;
        CHECK(bank.text_format == TextFormat::Markdown);
        REQUIRE(bank.questions.size() == 3);

        const Question& hinted = bank.questions[0];
        REQUIRE(hinted.hints.size() == 3);
        CHECK(only_text(hinted.hints[0].text) == "Think of **chunks**.");
        CHECK(only_text(hinted.hints[1].text) == "2 \\* 3 is six.");
        CHECK(only_text(hinted.hints[2].text) == "Use *both*.");
        for (const Hint& hint : hinted.hints)
            CHECK(hint.cost == 0);   // Moodle's hints cost through the penalty
        CHECK(hinted.max_tries == 4);   // one try per hint plus one
        CHECK(hinted.try_penalty == 0.1);
        // Right on the second try, after one hint: a tenth off, nothing for the hint.
        CHECK(points_kept(bank, hinted, 1, 2) == Approx(0.9));

        const Question& default_penalty = bank.questions[1];
        REQUIRE(default_penalty.hints.size() == 1);
        CHECK(only_text(default_penalty.hints[0].text) == "It *is*.");
        CHECK(default_penalty.max_tries == 2);
        CHECK_FALSE(default_penalty.try_penalty);   // Moodle's 0.3333333 is the bank's third
        CHECK(try_penalty(bank, default_penalty) == Approx(1.0 / 3.0));

        const Question& no_hints = bank.questions[2];
        CHECK(no_hints.hints.empty());
        CHECK_FALSE(no_hints.max_tries);
        CHECK_FALSE(no_hints.try_penalty);
        CHECK(max_tries(bank, no_hints) == 1);
    }
    SECTION("an empty hint, hint options, a penalty out of range, more hints than tries") {
        std::string many_hints;
        for (int i = 1; i <= 11; ++i)
            many_hints += "<hint format=\"plain_text\"><text>Hint " + std::to_string(i) + "</text></hint>\n";
        const ImportResult result = import_inline(
            question("shortanswer", "Problems", "<p>Which library?</p>",
                     "<penalty>1.5</penalty>\n<answer fraction=\"100\"><text>NCCL</text></answer>\n"
                     "<hint format=\"html\"><text><![CDATA[<p> </p>]]></text><options>1</options></hint>\n"
                     "<hint format=\"html\"><text>Four letters.</text></hint>\n") +
            question("truefalse", "Many", "<p>True?</p>",
                     "<answer fraction=\"100\"><text>true</text></answer>\n" + many_hints));
        CHECK(diagnostic_lines(result.diagnostics) == Strings{
            "inline.xml:7:1: warning: the penalty \"1.5\" is not a share of the question's points "
            "from 0 to 1: the bank's tryPenalty applies",
            "inline.xml:9:1: warning: hint 1: <options> is not kept: a bank's hint is its text only",
            "inline.xml:9:1: warning: hint 1 is empty: it is left out",
            "inline.xml:12:1: warning: Moodle gives the question 12 tries (one per hint plus one): a "
            "bank's question takes at most 10",
        });
        REQUIRE(result.bank);
        const Question& problems = result.bank->questions[0];
        REQUIRE(problems.hints.size() == 1);
        CHECK(only_text(problems.hints[0].text) == "Four letters.");
        CHECK(problems.max_tries == 2);
        CHECK_FALSE(problems.try_penalty);
        const Question& many = result.bank->questions[1];
        CHECK(many.hints.size() == 11);
        CHECK(only_text(many.hints[10].text) == "Hint 11");
        CHECK(many.max_tries == 10);
    }
}

TEST_CASE("import_moodle_xml: the same image twice is one file, another of its name gets -2",
          "[import][moodle-xml]") {
    const std::string png =
        "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8AARAxg8j8AG/ID/fPnS7EAAAAASUVORK5CYII=";
    // The same picture, one pixel row different: other bytes under the same name.
    const std::string other_png =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
    auto with_image = [&](const std::string& name, const std::string& base64) {
        return "<question type=\"truefalse\">\n<name><text>" + name +
               "</text></name>\n<questiontext format=\"html\"><text><![CDATA[<p>Look: <img "
               "src=\"@@PLUGINFILE@@/pic.png\" alt=\"a picture\"></p>]]></text>\n<file "
               "name=\"pic.png\" path=\"/\" encoding=\"base64\">" +
               base64 + "</file></questiontext>\n" + two_answers.substr(0, 0) +
               "<answer fraction=\"100\"><text>true</text></answer>\n<answer "
               "fraction=\"0\"><text>false</text></answer>\n</question>\n";
    };
    const ImportResult result = import_inline(with_image("One", png) + with_image("Two", png) +
                                              with_image("Three", other_png));
    REQUIRE(result.bank);
    REQUIRE(result.files.size() == 2);
    CHECK(result.files[0].path == "images/pic.png");
    CHECK(result.files[1].path == "images/pic-2.png");
    CHECK(only_text(result.bank->questions[1].prompt) == "Look: ![a picture](images/pic.png)");
    CHECK(only_text(result.bank->questions[2].prompt) == "Look: ![a picture](images/pic-2.png)");
}

TEST_CASE("import_moodle_xml: the example of docs/authoring.md", "[import][moodle-xml][docs]") {
    const std::string page = read_text_file(std::string(IMQUIZ_SOURCE_DIR) + "/docs/authoring.md");
    const Strings examples = markdown_blocks(page, "xml");
    REQUIRE(examples.size() == 1);
    const ImportResult result = import_moodle_xml(examples[0], "example.xml", {});
    CHECK(diagnostic_lines(result.diagnostics) == Strings{});
    REQUIRE(result.bank);
    REQUIRE(result.bank->questions.size() == 2);
    CHECK(result.bank->text_format == TextFormat::Markdown);
    CHECK(only_text(result.bank->questions[0].prompt) == "What is the capital of **France**?");
    CHECK(result.bank->questions[0].tags == Strings{"geography"});
    CHECK(only_text(result.bank->questions[1].unit) == "days");
    CHECK(result.bank->questions[1].numeric_answer.value == 366);
}

TEST_CASE("import_moodle_xml: embedded answers, gapselect and ddwtos are cloze questions",
          "[import][moodle-xml][cloze]") {
    const ImportResult result =
        import_moodle_xml(import_sample("moodle-cloze.xml"), "moodle-cloze.xml", {});
    CHECK(diagnostic_lines(result.diagnostics) == Strings{
        "moodle-cloze.xml:16:7: warning: blank-1 (NUMERICAL): the answer \"4:0\" (fraction 50%) is "
        "dropped: only fully right answers are accepted",
        "moodle-cloze.xml:16:7: warning: blank-2 (MULTICHOICE): the answer \"half a copy\" "
        "(fraction 50%) counts as wrong: a blank has one right answer",
        "moodle-cloze.xml:17:1: warning: blank-3 (SHORTANSWER): Moodle weighs it 2: ImQuiz weighs "
        "every blank the same",
        "moodle-cloze.xml:17:1: warning: blank-3 (SHORTANSWER): the answer \"reduce\" (fraction "
        "50%) is dropped: only fully right answers are accepted",
        "moodle-cloze.xml:18:1: warning: blank-5 (SAC): case-sensitive matching is not supported: "
        "the answers are accepted in any case",
        "moodle-cloze.xml:34:1: warning: blank-2 (SHORTANSWER): the answer \"Milan\" (fraction 50%) "
        "is dropped: only fully right answers are accepted",
        "moodle-cloze.xml:49:7: warning: blank-1 (MULTIRESPONSE): a blank takes one answer, not "
        "several: the question \"Several right\" is skipped",
    });
    REQUIRE(result.bank);
    const Bank& bank = *result.bank;
    CHECK(bank.text_format == TextFormat::Markdown);
    CHECK(bank.settings.partial_credit);
    CHECK(bank.settings.shuffle_choices);
    REQUIRE(bank.questions.size() == 4);
    for (const Question& question : bank.questions) {
        CHECK(question.type == QuestionType::Cloze);
        CHECK(question.tags == Strings{"fill-in-the-blanks"});
    }

    SECTION("embedded answers: numerical, multichoice, short answer; their placeholders unescaped") {
        const Question& step = bank.questions[0];
        CHECK(step.id == "data-parallel-step");
        CHECK(only_text(step.prompt) ==
              "In **data parallelism** each of the {{blank-1}} GPUs holds {{blank-2}} of the model.\n\n"
              "The gradients are summed with {{blank-3}}.\n\n"
              "Its braces are written {{blank-4}}; the library is {{blank-5}}.");
        REQUIRE(step.blanks.size() == 5);
        const Blank& gpus = step.blanks[0];
        CHECK(gpus.id == "blank-1");
        CHECK(gpus.kind == Blank::Kind::Numeric);
        CHECK(gpus.numeric_answer.value == 8);
        CHECK(gpus.numeric_answer.tolerance == 0);
        CHECK(only_text(gpus.feedback) == "Eight GPUs.");
        const Blank& copy = step.blanks[1];
        CHECK(copy.kind == Blank::Kind::Options);
        CHECK(texts_of(copy.options) == Strings{"a full copy", "a shard", "half a copy"});
        CHECK(copy.correct_option()->id == "a-full-copy");
        CHECK(only_text(copy.options[1].feedback) == "That is ZeRO.");
        const Blank& op = step.blanks[2];
        CHECK(op.kind == Blank::Kind::Typed);
        REQUIRE(op.accepted_texts.size() == 2);
        CHECK(only_text(op.accepted_texts[1]) == "allreduce");
        CHECK(only_text(op.feedback) == "The collective.");
        // \} \# \~ are the characters (escaped again for Markdown); ids from texts without letters.
        CHECK(texts_of(step.blanks[3].options) == Strings{"{ }", "\\# \\~", "( )"});
        CHECK(step.blanks[3].options[0].id == "choice-1");
        CHECK(only_text(step.blanks[4].accepted_texts[0]) == "NCCL");
        CHECK(only_text(step.explanation) == "DDP replicates the model and all-reduces the gradients.");
    }
    SECTION("Moodle's own shape: line breaks inside answers and feedback, ~= and a * catch-all") {
        const Question& capitals = bank.questions[1];
        CHECK(only_text(capitals.prompt) == "Match each city with its country,\n\n"
                                            "\\* Lyon: {{blank-1}}\\\n"
                                            "\\* The capital of Italy is {{blank-2}}.");
        CHECK(texts_of(capitals.blanks[0].options) == Strings{"Italy", "France"});
        CHECK(capitals.blanks[0].correct_option()->id == "france");
        CHECK(only_text(capitals.blanks[0].options[1].feedback) == "Yes,\\\nindeed.");
        REQUIRE(capitals.blanks[1].accepted_texts.size() == 1);
        CHECK(only_text(capitals.blanks[1].feedback) == "Right!");
    }
    SECTION("gapselect: a gap's choices are its group's, the n-th the right one") {
        const Question& words = bank.questions[2];
        CHECK(words.id == "pipeline-words");
        CHECK(only_text(words.prompt) ==
              "A pipeline splits the model into {{blank-1}}; its idle time is the {{blank-2}}.\n\n"
              "GPipe runs all forwards, then all {{blank-3}}.");
        REQUIRE(words.blanks.size() == 3);
        CHECK(texts_of(words.blanks[0].options) == Strings{"stages", "backwards", "shards"});
        CHECK(words.blanks[0].correct_option()->id == "stages");
        CHECK(texts_of(words.blanks[1].options) == Strings{"bubble", "stall \\& wait"});
        CHECK(words.blanks[1].options[1].id == "stall-wait");
        CHECK(words.blanks[2].correct_option()->id == "backwards");
    }
    SECTION("ddwtos: the same, a drag box used again (infinite) or not") {
        const Question& zero = bank.questions[3];
        REQUIRE(zero.blanks.size() == 3);
        CHECK(zero.blanks[2].options.size() == 4);
        CHECK(zero.blanks[2].correct_option()->id == "parameters");
    }
    SECTION("the bank validates, and a learner scores it per blank") {
        const BankLoadResult loaded = load_bank(bank_to_json(bank), "moodle-cloze.json");
        REQUIRE(loaded.bank);
        CHECK(diagnostic_lines(loaded.diagnostics) == Strings{});
        Session session = start_session(bank, 1);
        REQUIRE(current_question(session, bank)->id == "data-parallel-step");
        const Feedback all_right = check(session, bank,
                                         Response::matched({{"blank-1", "8"},
                                                            {"blank-2", "a-full-copy"},
                                                            {"blank-3", "AllReduce"},
                                                            {"blank-4", "choice-1"},
                                                            {"blank-5", "nccl"}}),
                                         0);
        CHECK(all_right.score == 1.0);
    }
}

TEST_CASE("import_moodle_xml: cloze questions it cannot read", "[import][moodle-xml][cloze]") {
    SECTION("no blank, a gap without its choice, a choice blank without a right answer, a bad number") {
        const ImportResult result = import_inline(
            question("cloze", "None", "<p>No {braces:here}.</p>", "") +
            question("gapselect", "Gap", "<p>Pick [[1]] or [[3]].</p>",
                     "<selectoption><text>a</text><group>1</group></selectoption>\n"
                     "<selectoption><text>b</text><group>1</group></selectoption>\n") +
            question("multianswer", "No right", "<p>{1:MC:%50%a~b}</p>", "") +
            question("cloze", "Number", "<p>{:NM:=five}</p>", "") +
            question("ddwtos", "No gap", "<p>Nothing to drag.</p>",
                     "<dragbox><text>a</text><group>1</group></dragbox>\n"));
        CHECK_FALSE(result.bank);
        CHECK(diagnostic_lines(result.diagnostics) == Strings{
            "inline.xml:3:1: error: the question text of \"None\" has no embedded answer like "
            "{1:SHORTANSWER:=answer}",
            "inline.xml:10:1: error: the gap [[3]] has no choice 3: the question has 2 choices",
            "inline.xml:17:1: warning: blank-1 (MC): the answer \"a\" (fraction 50%) counts as "
            "wrong: a blank has one right answer",
            "inline.xml:17:1: error: blank-1 (MC): no answer has the fraction 100",
            "inline.xml:22:1: error: blank-1 (NM): invalid numerical answer \"five\": expected a "
            "number like 3.5 or 3.5:0.1",
            "inline.xml:25:1: error: the question text of \"No gap\" has no gap like [[1]]",
        });
    }
    SECTION("hostile texts stay linear and bounded") {
        std::string unclosed, gaps, answers = "{1:MC:=a";
        for (int i = 0; i < 100000; ++i)
            unclosed += "{1:SA:x";
        for (int i = 0; i < 30; ++i)
            gaps += "[[1]]";
        for (int i = 0; i < 100000; ++i)
            answers += "~b";
        const ImportResult result = import_inline(
            question("cloze", "Unclosed", unclosed, "") + question("cloze", "Answers", answers + "}", "") +
            question("gapselect", "Gaps", gaps,
                     "<selectoption><text>a</text><group>1</group></selectoption>\n"
                     "<selectoption><text>b</text><group>1</group></selectoption>\n"));
        CHECK(diagnostic_lines(result.diagnostics) == Strings{
            "inline.xml:3:1: error: the question text of \"Unclosed\" has no embedded answer like "
            "{1:SHORTANSWER:=answer}",
            "inline.xml:10:1: error: blank-1 (MC): too many answers: a question takes at most 26",
            "inline.xml:15:1: error: too many gaps: a question takes at most 26",
        });
    }
    SECTION("a plain-text cloze in a plain bank; a gap group of one choice is the loader's error") {
        const ImportResult plain = import_inline(
            "<question type=\"cloze\">\n<name><text>Plain</text></name>\n"
            "<questiontext format=\"plain_text\"><text>2 * 3 = {1:NM:=6:0#Six.} and 2,5 = "
            "{1:NUMERICAL:=2,5}</text></questiontext>\n</question>\n");
        REQUIRE(plain.bank);
        CHECK(plain.bank->text_format == TextFormat::Plain);
        const Question& cloze = plain.bank->questions[0];
        CHECK(only_text(cloze.prompt) == "2 * 3 = {{blank-1}} and 2,5 = {{blank-2}}");
        CHECK(cloze.blanks[1].numeric_answer.value == 2.5);
        CHECK(only_text(cloze.blanks[0].feedback) == "Six.");

        const ImportResult lonely = import_inline(question(
            "gapselect", "Lonely", "<p>[[1]] and [[2]]</p>",
            "<selectoption><text>a</text><group>1</group></selectoption>\n"
            "<selectoption><text>b</text><group>2</group></selectoption>\n"));
        CHECK_FALSE(lonely.bank);
        CHECK(diagnostic_lines(lonely.diagnostics) == Strings{
            "inline.xml:3:1: error: blanks[0].choices: needs at least 2 choices, has 1",
            "inline.xml:3:1: error: blanks[1].choices: needs at least 2 choices, has 1",
        });
    }
}
