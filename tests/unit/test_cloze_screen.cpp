// Cloze questions in the app: the screen model every rendering reads (the prompt's numbered gaps,
// a row per blank with its list or its field), the page protocol's "fill" action, announcements,
// a numeric blank's refusal, the checked state, the results and a learner's answer that is never
// read as Markdown.
#include "app_test_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using namespace imquiz;
using namespace imquiz::app;
using json = nlohmann::json;
using imquiz::testing::TestApp;
using imquiz::testing::Url;
namespace memory = imquiz::platform::memory;

namespace {

std::string cloze_bank(const char* text_format) {
    return std::string(R"({"format": "imquiz-bank", "version": 1, "id": "cloze", "title": "Cloze",
      "languages": ["en", "ru"], "defaultLanguage": "en", "textFormat": ")") + text_format + R"(",
      "questions": [{
        "id": "ddp", "type": "cloze",
        "prompt": {"en": "Each of the {{gpus}} GPUs holds {{copy}} of the model; gradients are averaged with {{op}}.",
                   "ru": "Градиенты усредняются операцией {{op}}, а каждый из {{gpus}} GPU хранит {{copy}} модели."},
        "explanation": "Replicas, then all-reduce.",
        "blanks": [
          {"id": "gpus", "answer": {"value": 8}, "unit": "GPUs"},
          {"id": "copy", "choices": [{"id": "full", "text": {"en": "a full copy", "ru": "полную копию"}, "correct": true},
                                     {"id": "shard", "text": {"en": "a shard", "ru": "шард"}, "feedback": "That is ZeRO"}]},
          {"id": "op", "accept": ["all-reduce"], "feedback": "The collective that sums and shares."}
        ]}, {
        "id": "after", "type": "true_false", "prompt": "Done?", "answer": true, "explanation": "Yes."
      }]})";
}

TestApp booted(const char* text_format, const char* language) {
    TestApp app(Url{{"bank", "dev/cloze.json"}, {"lang", language}}, false);
    memory::world().files["dev/cloze.json"] = cloze_bank(text_format);
    app.boot();
    const ScreenModel screen = app.screen();
    std::string problems;  // why the bank did not open, when it did not
    for (const CardModel& card : screen.catalog.cards) problems += card.title + ": " + Catch::Detail::stringify(card.problems) + "\n";
    INFO(problems);
    REQUIRE(screen.screen == Screen::Question);
    return app;
}

}  // namespace

TEST_CASE("cloze screen: numbered gaps in the prompt, a row per blank in the prompt's order") {
    for (const char* format : {"plain", "markdown"}) {
        CAPTURE(format);
        TestApp app = booted(format, "en");
        QuestionModel q = app.screen().question;
        CHECK(q.type == "cloze");
        CHECK(q.prompt == "Each of the [1 ____] GPUs holds [2 ____] of the model; gradients are averaged with [3 ____].");
        CHECK(q.instruction == "Fill in every blank.");
        REQUIRE(q.rows.size() == 3);
        CHECK(q.rows[0].id == "gpus");
        CHECK(q.rows[0].label == "Blank 1 of 3");
        CHECK(q.rows[0].field.present);
        CHECK(q.rows[0].field.numeric);
        CHECK(q.rows[0].field.unit == "GPUs");
        CHECK(q.rows[1].id == "copy");
        CHECK_FALSE(q.rows[1].field.present);
        REQUIRE(q.rows[1].options.size() == 3);  // "Choose…", then the choices
        CHECK(q.rows[1].answer_text == "Choose…");
        CHECK(q.rows[2].field.present);
        CHECK_FALSE(q.rows[2].field.numeric);
        CHECK_FALSE(q.primary.enabled);

        // A learner's text in a gap is never Markdown: "*x*" stays as typed.
        app.send({{"type", "fill"}, {"blank", "op"}, {"value", "*all*-reduce_"}});
        app.send({{"type", "fill"}, {"blank", "copy"}, {"value", "full"}});
        q = app.screen().question;
        CHECK(q.prompt == "Each of the [1 ____] GPUs holds [2: a full copy] of the model; gradients are averaged with [3: *all*-reduce_].");
        CHECK(q.moved == "Blank 2 of 3: a full copy.");
        CHECK(q.rows[1].answer_id == "full");
        CHECK(q.rows[2].field.value == "*all*-reduce_");
        CHECK_FALSE(q.primary.enabled);
    }
}

TEST_CASE("cloze screen: in Russian the blanks are numbered in the Russian prompt's order") {
    TestApp app = booted("plain", "ru");
    const QuestionModel q = app.screen().question;
    CHECK(q.prompt == "Градиенты усредняются операцией [1 ____], а каждый из [2 ____] GPU хранит [3 ____] модели.");
    REQUIRE(q.rows.size() == 3);
    CHECK(q.rows[0].id == "op");
    CHECK(q.rows[0].label == "Пропуск 1 из 3");
    CHECK(q.rows[2].id == "copy");
    CHECK(q.rows[2].options.at(1).text == "полную копию");
    CHECK(q.instruction == "Заполните все пропуски.");
}

TEST_CASE("cloze screen: a numeric blank that is not a number is refused and named; then checked per blank") {
    TestApp app = booted("plain", "en");
    app.send({{"type", "fill"}, {"blank", "gpus"}, {"value", "eight"}});
    app.send({{"type", "fill"}, {"blank", "copy"}, {"value", "shard"}});
    app.send({{"type", "fill"}, {"blank", "op"}, {"value", "All-Reduce"}});
    REQUIRE(app.screen().question.primary.enabled);
    app.send({{"type", "check"}});
    QuestionModel q = app.screen().question;
    CHECK_FALSE(q.checked);
    CHECK(q.rows[0].field.problem == "That is not a number. Use digits, with a point or a comma for decimals.");
    CHECK(q.rows[2].field.problem.empty());
    CHECK(app.page()["question"]["rows"][0]["field"]["problem"] == q.rows[0].field.problem);

    app.send({{"type", "fill"}, {"blank", "gpus"}, {"value", "8"}});
    CHECK(app.screen().question.rows[0].field.problem.empty());
    app.send({{"type", "check"}});
    q = app.screen().question;
    REQUIRE(q.checked);
    CHECK(q.verdict.word == "Incorrect");
    CHECK(q.rows[0].correct == std::optional<bool>(true));
    CHECK(q.rows[0].field.read_only);
    CHECK(q.rows[1].correct == std::optional<bool>(false));
    CHECK(q.rows[1].status == "Incorrect · Right answer: a full copy");
    CHECK(q.rows[1].options.empty());
    CHECK(q.rows[1].feedback == "That is ZeRO.");  // the picked choice's own
    CHECK(q.rows[2].status == "Correct");
    CHECK(q.rows[2].feedback == "The collective that sums and shares.");
    CHECK(q.prompt == "Each of the [1: 8] GPUs holds [2: a shard] of the model; gradients are averaged with [3: All-Reduce].");
    CHECK(q.correct_answer_line == "Correct answer: 1: 8; 2: a full copy; 3: all-reduce");
    CHECK(q.announcement.find("Incorrect.") == 0);
    CHECK(q.announcement.find("The collective that sums and shares.") != std::string::npos);

    app.send({{"type", "next"}});
    app.send({{"type", "select"}, {"choice", "true"}});
    app.send({{"type", "check"}});
    app.send({{"type", "next"}});
    const ScreenModel results = app.screen();
    REQUIRE(results.screen == Screen::Results);
    const ResultRowModel& row = results.results.rows.at(0);
    CHECK(row.prompt == "Each of the [1 ____] GPUs holds [2 ____] of the model; gradients are averaged with [3 ____].");
    CHECK(row.your_answer_line == "Your answer: 1: 8; 2: a shard; 3: All-Reduce");
    CHECK(row.correct_answer_line == "Correct answer: 1: 8; 2: a full copy; 3: all-reduce");
}

TEST_CASE("cloze screen: partial credit per blank; the page protocol spells rows and the fill action") {
    TestApp app(Url{{"bank", "dev/cloze.json"}, {"lang", "en"}}, false);
    std::string bank = cloze_bank("plain");
    bank.replace(bank.find("\"languages\""), 0, R"("settings": {"partialCredit": true}, )");
    memory::world().files["dev/cloze.json"] = bank;
    app.boot();
    const json page = app.page();
    const json& rows = page["question"]["rows"];
    REQUIRE(rows.size() == 3);
    CHECK(rows[0]["number"] == 1);
    CHECK(rows[0]["field"]["numeric"] == true);
    CHECK(rows[1]["options"][1]["action"] == json({{"type", "fill"}, {"blank", "copy"}, {"value", "full"}}));
    app.send(rows[1]["options"][1]["action"]);
    app.send({{"type", "fill"}, {"blank", "gpus"}, {"value", "8"}});
    app.send({{"type", "fill"}, {"blank", "op"}, {"value", "broadcast"}});
    app.send({{"type", "check"}});
    const QuestionModel q = app.screen().question;
    REQUIRE(q.checked);
    CHECK(q.verdict.word == "Partly correct");
    CHECK(q.verdict.score == Approx(2.0 / 3.0));
}
