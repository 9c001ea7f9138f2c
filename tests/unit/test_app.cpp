// The app without a browser: app/ driven through its actions on the in-memory platform
// (src/platform/memory), asserting the screen model of every screen, the page protocol it
// publishes, and what it stores. Whole quizzes run in milliseconds here; the browser tests still
// check that the canvas and the page render this model.
#include "app/app.h"
#include "app/format.h"
#include "app/page_protocol.h"
#include "app/screen_model.h"
#include "platform/memory/platform_memory.h"

#include "app_test_support.h"
#include "readme_examples.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

using namespace imquiz;
using namespace imquiz::app;
using json = nlohmann::json;
namespace memory = imquiz::platform::memory;
using imquiz::testing::fresh_world;
using imquiz::testing::source;

namespace {

// The full example bank of quizzes/README.md: every question type, as authors see it documented.
std::string readme_example_bank() {
    std::string bank = testing::readme_example(source("quizzes/README.md"), "full bank");
    REQUIRE_FALSE(bank.empty());
    return bank;
}

using Url = imquiz::testing::Url;
using imquiz::testing::TestApp;

const CardModel& card(const ScreenModel& screen, const std::string& id) {
    for (const auto& c : screen.catalog.cards)
        if (c.key == id) return c;
    FAIL("no card " << id);
    throw;
}

// Answers the current question right, from the bank's own key.
void answer_right(TestApp& app, const json& bank) {
    ScreenModel screen = app.screen();
    const QuestionModel& q = screen.question;
    REQUIRE(q.present);
    for (const auto& question : bank["questions"]) {
        if (question["id"] != q.id) continue;
        std::string type = question["type"];
        if (type == "single_choice" || type == "multiple_choice") {
            for (const auto& choice : question["choices"])
                if (choice.value("correct", false)) app.send({{"type", "select"}, {"choice", choice["id"]}});
        } else if (type == "true_false") {
            app.send({{"type", "select"}, {"choice", question["answer"].get<bool>() ? "true" : "false"}});
        } else if (type == "numeric") {
            const json& answer = question["answer"];
            double value = answer.contains("value") ? answer["value"].get<double>()
                                                    : (answer["min"].get<double>() + answer["max"].get<double>()) / 2;
            std::ostringstream typed;
            typed << value;
            app.send({{"type", "type"}, {"text", typed.str()}});
        } else {
            const json& accepted = question["answers"][0];
            app.send({{"type", "type"}, {"text", accepted.is_string() ? accepted : accepted.begin().value()}});
        }
    }
}

// Some answer to the question on screen, whatever its type (the first choice, the first answer
// for every matching item, the order as shown, "0" typed, every blank's first choice or "0").
void answer_anything(TestApp& app, const ScreenModel& s) {
    if (!s.question.choices.empty()) app.send({{"type", "select"}, {"choice", s.question.choices[0].id}});
    else if (s.question.type == "matching")
        for (const auto& row : s.question.rows) app.send({{"type", "match"}, {"item", row.id}, {"answer", row.options.at(1).id}});
    else if (s.question.type == "cloze")
        for (const auto& row : s.question.rows)
            app.send({{"type", "fill"}, {"blank", row.id}, {"value", row.field.present ? std::string("0") : row.options.at(1).id}});
    else if (s.question.type != "ordering") app.send({{"type", "type"}, {"text", "0"}});
}

}  // namespace

TEST_CASE("app: both launch quizzes walked to the results through app/ alone") {
    for (const char* id : {"data-parallelism", "model-pipeline-parallelism"}) {
        for (const char* language : {"en", "ru", "id"}) {
            CAPTURE(id, language);
            json bank = json::parse(source(std::string("quizzes/") + id + ".json"));
            TestApp app(Url{{"lang", language}});
            app.boot();
            ScreenModel screen = app.screen();
            REQUIRE(screen.screen == Screen::Catalog);
            REQUIRE(screen.catalog.cards.size() == 2);
            const CardModel& before = card(screen, id);
            CHECK(before.status == CardModel::Status::Ready);
            CHECK(before.standing == tr(screen.language == "ru" ? Language::Russian : screen.language == "id" ? Language::Indonesian : Language::English, Str::NotTakenYet));
            app.press(before.buttons.at(0));

            std::size_t total = app.screen().question.total;
            REQUIRE(total == bank["questions"].size());
            for (std::size_t n = 1; n <= total; ++n) {
                screen = app.screen();
                REQUIRE(screen.screen == Screen::Question);
                const QuestionModel& q = screen.question;
                CHECK(q.index == n);
                CHECK(q.counter == std::to_string(n) + " / " + std::to_string(total));
                CHECK_FALSE(q.primary.enabled);  // nothing chosen yet
                CHECK(q.primary.action.kind == Action::Kind::Check);
                CHECK(screen.title.find(q.quiz_title) != std::string::npos);
                answer_right(app, bank);
                screen = app.screen();
                REQUIRE(screen.question.primary.enabled);
                app.press(screen.question.primary);
                screen = app.screen();
                REQUIRE(screen.question.checked);
                CHECK(screen.question.verdict.correct);
                CHECK(screen.question.correct_answer_line.empty());  // right choice: the cards say it
                CHECK_FALSE(screen.question.announcement.empty());
                CHECK(screen.question.primary.action.kind == Action::Kind::Next);
                app.press(screen.question.primary);
            }
            screen = app.screen();
            REQUIRE(screen.screen == Screen::Results);
            CHECK(screen.results.percent == 100);
            CHECK(screen.results.percent_text == "100%");
            CHECK(screen.results.passed);
            CHECK(screen.results.rows.size() == total);
            CHECK(screen.results.missed == 0);
            CHECK(screen.results.buttons.front().id == "retry");  // no Review mistakes: nothing missed
            // Sent to the host: attempted, one answered per question, completed, passed.
            CHECK(memory::world().host_messages.size() == total + 3);
            // Kept: the catalog shows the best score once back there.
            app.act(Action::of(Action::Kind::BackToCatalog));
            const ScreenModel catalog = app.screen();
            const CardModel& after = card(catalog, id);
            CHECK(after.has_best);
            CHECK(after.attempts == 1);
        }
    }
}

TEST_CASE("app: a bank from a bank= link is kept apart (regression: a look-alike overwrote a real quiz's progress)") {
    // First, real progress in the catalog's data-parallelism.
    json real = json::parse(source("quizzes/data-parallelism.json"));
    std::map<std::string, std::string> stored;
    {
        TestApp app(Url{{"quiz", "data-parallelism"}, {"lang", "en"}});
        app.boot();
        answer_right(app, real);
        app.send({{"type", "check"}});
        stored = memory::world().storage;
    }
    REQUIRE(stored.count("progress.data-parallelism"));
    const std::string before = stored.at("progress.data-parallelism");
    // A look-alike with the same id, from a bank= link, played to the end.
    TestApp app(Url{{"lang", "en"}}, false);
    memory::world().storage = stored;
    memory::world().development_bank_url = "https://127.0.0.1:9/look-alike.json";
    memory::world().files["https://127.0.0.1:9/look-alike.json"] = source("quizzes/data-parallelism.json");
    app.boot();
    ScreenModel screen = app.screen();
    REQUIRE(screen.screen == Screen::Question);
    CHECK(screen.development_banner.find("https://127.0.0.1:9/look-alike.json") != std::string::npos);
    CHECK(app.page()["developmentBanner"] == screen.development_banner);
    CHECK(screen.question.index == 1);  // not the real quiz's attempt in progress
    while (app.screen().screen == Screen::Question) {
        answer_right(app, real);
        app.send({{"type", "check"}});
        app.send({{"type", "next"}});
    }
    CHECK(app.screen().results.percent == 100);
    CHECK(memory::world().storage.at("progress.data-parallelism") == before);  // untouched
    bool kept_apart = false;
    for (const auto& [key, value] : memory::world().storage)
        kept_apart |= key.rfind("development.", 0) == 0 && key.find("progress.data-parallelism") != std::string::npos;
    CHECK(kept_apart);
    CHECK(memory::world().host_messages.empty());  // no learner events for anyone's link
}

TEST_CASE("app: progress can be deleted, one quiz or all, after a confirmation") {
    json bank = json::parse(source("quizzes/data-parallelism.json"));
    TestApp app(Url{{"quiz", "data-parallelism"}, {"lang", "en"}});
    app.boot();
    answer_right(app, bank);
    app.send({{"type", "check"}});
    app.act(Action::of(Action::Kind::BackToCatalog));
    app.settle();
    app.act(Action::of(Action::Kind::OpenSettings));
    app.send({{"type", "theme"}, {"value", "dark"}});  // a saved setting, which deleting progress must keep
    REQUIRE(memory::world().storage.count("settings"));
    ScreenModel screen = app.screen();
    REQUIRE(screen.settings.delete_buttons.size() == 2);  // the quiz with progress, then all
    CHECK(screen.settings.delete_buttons[0].accessible_name == "Delete progress: " + card(screen, "data-parallelism").title);
    CHECK(screen.settings.delete_titles[0] == card(screen, "data-parallelism").title);
    app.press(screen.settings.delete_buttons[0]);
    screen = app.screen();
    REQUIRE(screen.settings.confirmation);
    CHECK(screen.settings.confirmation->question.find(card(screen, "data-parallelism").title) != std::string::npos);
    CHECK(memory::world().storage.count("progress.data-parallelism"));  // nothing gone before the yes
    SECTION("Esc cancels") {
        app.act(screen.escape);
        CHECK_FALSE(app.screen().settings.confirmation);
        CHECK(memory::world().storage.count("progress.data-parallelism"));
    }
    SECTION("Delete deletes that quiz's progress, and says so") {
        app.press(screen.settings.confirmation->confirm);
        screen = app.screen();
        CHECK_FALSE(screen.settings.confirmation);
        CHECK(screen.settings.import_message == "Progress deleted.");
        CHECK_FALSE(memory::world().storage.count("progress.data-parallelism"));
        CHECK(memory::world().storage.count("settings"));  // settings are not progress
        CHECK_FALSE(card(screen, "data-parallelism").in_progress);
    }
    SECTION("Delete all progress deletes every quiz's") {
        app.act(screen.settings.confirmation->cancel.action);
        app.press(app.screen().settings.delete_buttons.back());
        screen = app.screen();
        REQUIRE(screen.settings.confirmation);
        app.press(screen.settings.confirmation->confirm);
        for (const auto& [key, value] : memory::world().storage) CHECK(key.find("progress") == std::string::npos);
        CHECK(memory::world().storage.count("settings"));
        CHECK(app.screen().settings.delete_buttons.size() == 1);  // only "all" is left to offer
    }
}

TEST_CASE("app: bidi and invisible controls in bank text are neutralized for every rendering") {
    std::string bank = source("quizzes/data-parallelism.json");
    json parsed = json::parse(bank);
    parsed["title"]["en"] = std::string("Quiz \xE2\x80\xAEgnirts\xE2\x80\xAC end\xE2\x80\x8B");
    TestApp app(Url{{"quiz", "data-parallelism"}, {"lang", "en"}});
    memory::world().files["quizzes/data-parallelism.json"] = parsed.dump();
    app.boot();
    ScreenModel screen = app.screen();
    REQUIRE(screen.screen == Screen::Question);
    for (const std::string& shown : {screen.question.quiz_title, screen.title, card(screen, "data-parallelism").title}) {
        CAPTURE(shown);
        CHECK(shown.find("\xE2\x80\xAE") == std::string::npos);  // U+202E RIGHT-TO-LEFT OVERRIDE
        CHECK(shown.find("\xE2\x80\x8B") == std::string::npos);  // U+200B ZERO WIDTH SPACE
        CHECK(shown.find("gnirts") != std::string::npos);         // the text itself stays
    }
}

TEST_CASE("app: a numeric answer with tolerance 0 reads the same everywhere (regression: '20 ± 0')") {
    TestApp app(Url{{"bank", "dev/example.json"}, {"lang", "en"}}, false);
    memory::world().files["dev/example.json"] = readme_example_bank();
    app.boot();
    REQUIRE(app.screen().screen == Screen::Question);
    // Skip to the numeric question with tolerance 0 (ipv4-header), answering the others wrong.
    for (int guard = 0; guard < 20 && app.screen().question.id != "ipv4-header"; ++guard) {
        app.act(Action::of(Action::Kind::Next));  // unchecked: Next does nothing...
        ScreenModel s = app.screen();
        answer_anything(app, s);
        app.send({{"type", "check"}});
        app.send({{"type", "next"}});
    }
    REQUIRE(app.screen().question.id == "ipv4-header");
    app.send({{"type", "type"}, {"text", "21"}});
    app.send({{"type", "check"}});
    ScreenModel screen = app.screen();
    REQUIRE(screen.question.checked);
    CHECK_FALSE(screen.question.verdict.correct);
    CHECK(screen.question.correct_answers == std::vector<std::string>{"20"});
    CHECK(screen.question.correct_answer_line == "Correct answer: 20");
    CHECK(app.page()["question"]["feedback"]["correctAnswer"] == json::array({"20"}));
    CHECK(screen.question.field.value == "21");
    // On to the results: the row says the same.
    for (int guard = 0; guard < 20 && app.screen().screen == Screen::Question; ++guard) {
        app.send({{"type", "next"}});
        ScreenModel s = app.screen();
        if (s.screen != Screen::Question || s.question.checked) continue;
        answer_anything(app, s);
        app.send({{"type", "check"}});
    }
    screen = app.screen();
    REQUIRE(screen.screen == Screen::Results);
    bool found = false;
    for (const auto& row : screen.results.rows) {
        if (row.id != "ipv4-header") continue;
        found = true;
        CHECK(row.correct_answers == std::vector<std::string>{"20"});
        CHECK(row.correct_answer_line == "Correct answer: 20");
        CHECK(row.your_answer_line == "Your answer: 21");
    }
    CHECK(found);
    const json page = app.page();
    for (const auto& row : page["results"]["questions"])
        if (row["id"] == "ipv4-header") CHECK(row["correctAnswer"] == json::array({"20"}));
}

TEST_CASE("app: can Check is one rule, the engine's (regression: four white-space rules)") {
    TestApp app(Url{{"bank", "dev/example.json"}, {"lang", "en"}}, false);
    memory::world().files["dev/example.json"] = readme_example_bank();
    app.boot();
    for (int guard = 0; guard < 20 && !app.screen().question.field.present; ++guard) {
        ScreenModel s = app.screen();
        app.send({{"type", "select"}, {"choice", s.question.choices[0].id}});
        app.send({{"type", "check"}});
        app.send({{"type", "next"}});
    }
    ScreenModel screen = app.screen();
    REQUIRE(screen.question.field.present);
    SECTION("white space of any kind is nothing typed: Check is off, and a page's check does nothing") {
        for (const char* blank : {"", " ", "\t", "\n", " \r\n\t ", "\xC2\xA0", "\xE2\x80\x83", "\xE3\x80\x80"}) {
            CAPTURE(blank);
            app.send({{"type", "type"}, {"text", blank}});
            CHECK_FALSE(app.screen().question.primary.enabled);
            CHECK(app.page()["question"]["primary"]["enabled"] == false);
            app.send({{"type", "check"}});
            CHECK_FALSE(app.screen().question.checked);
        }
    }
    SECTION("text that is not a number: Check is on, and the learner is told why it was turned down") {
        if (!screen.question.field.numeric) return;
        app.send({{"type", "type"}, {"text", "twenty"}});
        REQUIRE(app.screen().question.primary.enabled);
        app.send({{"type", "check"}});
        ScreenModel refused = app.screen();
        CHECK_FALSE(refused.question.checked);
        CHECK(refused.question.field.problem == tr(Language::English, Str::NotANumber));
        app.send({{"type", "type"}, {"text", "20"}});
        CHECK(app.screen().question.field.problem.empty());
    }
}

TEST_CASE("app: the text sizes are one list (regression: four copies)") {
    TestApp app(Url{{"lang", "en"}});
    app.boot();
    app.act(Action::of(Action::Kind::OpenSettings));
    ScreenModel screen = app.screen();
    REQUIRE(screen.screen == Screen::Settings);
    const OptionGroupModel* sizes = nullptr;
    for (const auto& group : screen.settings.groups)
        if (group.id == "text-size") sizes = &group;
    REQUIRE(sizes);
    REQUIRE(sizes->options.size() == std::size(text_sizes));
    for (std::size_t i = 0; i < sizes->options.size(); ++i) {
        CHECK(sizes->options[i].label == text_sizes[i].label);
        CHECK(sizes->options[i].action.number == text_sizes[i].scale);
    }
    SECTION("a size sent by the page snaps to the nearest offered one, and exactly one is selected") {
        app.send({{"type", "text-size"}, {"value", 1.13}});
        CHECK(app.state.preferences.text_scale == 1.125f);
        screen = app.screen();
        int selected = 0;
        for (const auto& group : screen.settings.groups)
            if (group.id == "text-size")
                for (const auto& option : group.options) selected += option.selected;
        CHECK(selected == 1);
        json stored = json::parse(memory::world().storage.at("settings"));
        CHECK(stored["textScale"] == 1.125);
    }
}

TEST_CASE("app: resume, review mistakes, and the catalog after quiz=") {
    SECTION("quiz= opens the quiz at once; back in the catalog every bank loads (regression: 'Loading the quiz…' for good)") {
        TestApp app(Url{{"quiz", "data-parallelism"}, {"lang", "en"}});
        app.boot();
        REQUIRE(app.screen().screen == Screen::Question);
        ScreenModel screen = app.screen();
        REQUIRE(screen.question.back);
        app.press(*screen.question.back);
        app.settle();
        screen = app.screen();
        REQUIRE(screen.screen == Screen::Catalog);
        CHECK(card(screen, "model-pipeline-parallelism").status == CardModel::Status::Ready);
        const CardModel& opened = card(screen, "data-parallelism");
        CHECK(opened.in_progress);
        CHECK(opened.buttons.at(0).label == "Continue");
        CHECK(opened.standing == "In progress: 0 of 8 answered");  // not "Not taken yet" beside Continue
    }
    SECTION("an attempt in progress is resumed after a reload, on the same question, with its answer") {
        json bank = json::parse(source("quizzes/data-parallelism.json"));
        std::map<std::string, std::string> stored;
        std::string question_id;
        {
            TestApp app(Url{{"quiz", "data-parallelism"}, {"lang", "en"}});
            app.boot();
            answer_right(app, bank);
            app.send({{"type", "check"}});
            app.send({{"type", "next"}});
            answer_right(app, bank);
            app.send({{"type", "check"}});
            question_id = app.screen().question.id;
            stored = memory::world().storage;
        }
        TestApp again(Url{{"quiz", "data-parallelism"}, {"lang", "en"}});
        memory::world().storage = stored;
        again.boot();
        ScreenModel screen = again.screen();
        REQUIRE(screen.screen == Screen::Question);
        CHECK(screen.question.index == 2);
        CHECK(screen.question.id == question_id);
        CHECK(screen.question.checked);  // checked before the reload: its feedback is back
        CHECK(screen.question.verdict.correct);
    }
    SECTION("review mistakes plays only the missed questions") {
        TestApp app(Url{{"quiz", "data-parallelism"}, {"lang", "en"}});
        app.boot();
        for (int n = 0; n < 8; ++n) {
            ScreenModel s = app.screen();
            // Wrong on purpose: the first choice that is not right.
            json bank = json::parse(source("quizzes/data-parallelism.json"));
            for (const auto& question : bank["questions"])
                if (question["id"] == s.question.id)
                    for (const auto& choice : question["choices"])
                        if (!choice.value("correct", false) && n % 2 == 0) {
                            app.send({{"type", "select"}, {"choice", choice["id"]}});
                            break;
                        }
            if (n % 2 == 1) answer_right(app, bank);
            app.send({{"type", "check"}});
            app.send({{"type", "next"}});
        }
        ScreenModel screen = app.screen();
        REQUIRE(screen.screen == Screen::Results);
        CHECK(screen.results.missed == 4);
        CHECK(screen.results.percent_text == "50%");
        REQUIRE(screen.results.buttons.at(0).id == "review");
        for (const auto& row : screen.results.rows)
            CHECK(row.correct_answer_line.empty() == row.correct);
        app.press(screen.results.buttons.at(0));
        CHECK(app.screen().question.total == 4);
    }
}

TEST_CASE("app: storage that refuses writes is said once, and the quiz goes on") {
    TestApp app(Url{{"quiz", "data-parallelism"}, {"lang", "en"}});
    memory::world().storage_full = true;
    app.boot();
    ScreenModel screen = app.screen();
    REQUIRE(screen.notice);
    CHECK(screen.notice->text == tr(Language::English, Str::StorageWriteFailed));
    app.press(screen.notice->dismiss);
    CHECK_FALSE(app.screen().notice);
    json bank = json::parse(source("quizzes/data-parallelism.json"));
    answer_right(app, bank);
    app.send({{"type", "check"}});
    CHECK(app.screen().question.checked);
    CHECK_FALSE(app.screen().notice);  // told once, not for every save
}

TEST_CASE("app: the page protocol names actions both ways") {
    TestApp app(Url{{"lang", "en"}});
    app.boot();
    ScreenModel screen = app.screen();
    for (const auto& c : screen.catalog.cards) {
        for (const auto& button : c.buttons) {
            std::string sent = action_to_page(app.state, button.action);
            Action back = action_from_page(app.state, sent);
            CHECK(back.kind == button.action.kind);
            CHECK(back.bank == button.action.bank);
        }
    }
    CHECK(action_from_page(app.state, R"({"type":"open","quiz":"no-such-quiz"})").kind == Action::Kind::None);
    CHECK(action_from_page(app.state, R"({"type":"language","value":"xx"})").kind == Action::Kind::None);
    CHECK(action_from_page(app.state, "not json").kind == Action::Kind::None);
    CHECK(action_from_page(app.state, R"({"type":"text-size","value":"big"})").kind == Action::Kind::None);
}

TEST_CASE("app: a 20,000-question attempt finishes, is saved and shows its results (regression: 7 s in the browser)") {
    // The engine's question limit, in the compact shape of scripts/bench: two choices, 'a' right.
    constexpr int count = 20000;
    json bank = {{"format", "imquiz-bank"}, {"version", 1}, {"id", "big"}, {"title", "Big"}, {"languages", {"en"}}, {"defaultLanguage", "en"},
                 {"settings", {{"passPercent", 70}}}, {"questions", json::array()}};
    for (int i = 1; i <= count; ++i)
        bank["questions"].push_back({{"id", "q" + std::to_string(i)}, {"type", "single_choice"},
                                     {"prompt", std::to_string(i) + " + 1 = ?"},
                                     {"choices", {{{"id", "a"}, {"text", std::to_string(i + 1)}, {"correct", true}},
                                                  {{"id", "b"}, {"text", std::to_string(i + 2)}}}}});
    const auto fresh = [&] {
        auto app = std::make_unique<TestApp>(Url{{"quiz", "big"}, {"lang", "en"}}, false);
        memory::world().files["quizzes/index.json"] = R"({"format":"imquiz-catalog","version":1,"banks":[{"id":"big","file":"big.json"}]})";
        memory::world().files["quizzes/big.json"] = bank.dump();
        return app;
    };
    std::map<std::string, std::string> stored;
    {
        auto app = fresh();
        app->boot();
        REQUIRE(app->screen().screen == Screen::Question);
        app->send({{"type", "select"}, {"choice", "a"}});
        app->send({{"type", "check"}});
        app->send({{"type", "next"}});
        stored = memory::world().storage;
    }
    // Every question but the last answered, as a learner who got that far would have it stored.
    auto key = std::find_if(stored.begin(), stored.end(), [](const auto& entry) { return entry.first.find("progress.big") != std::string::npos; });
    REQUIRE(key != stored.end());
    json record = json::parse(key->second);
    json& attempt = record["inProgress"];
    for (int i = 0; i + 1 < count; ++i)
        if (!attempt["questions"][i].contains("answer"))
            attempt["questions"][i]["answer"] = {{"response", {{"choiceIds", {"a"}}}}, {"score", 1.0}, {"correct", true},
                                                 {"answeredAtMs", attempt["lastActivityMs"]}};
    attempt["current"] = count - 1;
    key->second = record.dump();

    auto app = fresh();
    memory::world().storage = stored;
    app->boot();
    REQUIRE(app->screen().question.index == count);
    app->send({{"type", "select"}, {"choice", "b"}});
    app->send({{"type", "check"}});
    app->send({{"type", "next"}});
    const ScreenModel screen = app->screen();
    REQUIRE(screen.screen == Screen::Results);
    CHECK(screen.results.rows.size() == count);
    CHECK(screen.results.missed == 1);
    CHECK(screen.results.percent_text == "99.9%");   // not "100%" with a question missed
    CHECK(screen.results.rows.back().heading == "20000. Incorrect");

    const auto saved = std::find_if(memory::world().storage.begin(), memory::world().storage.end(),
                                    [](const auto& entry) { return entry.first.find("progress.big") != std::string::npos; });
    REQUIRE(saved != memory::world().storage.end());
    const json after = json::parse(saved->second);
    CHECK_FALSE(after.contains("inProgress"));
    CHECK(after["finished"].size() == 1);
    CHECK(after["questionStats"].size() == count);
    CHECK(after["questionStats"]["q20000"]["correct"] == 0);
    CHECK(after["questionStats"]["q1"]["correct"] == 1);
}

TEST_CASE("app: a percent is never rounded up to a mark it did not reach") {
    CHECK(format_percent(100) == "100%");
    CHECK(format_percent(99.995) == "99.9%");
    CHECK(format_percent(99.4) == "99%");
    CHECK(format_percent(66.666) == "67%");
    CHECK(format_percent(69.6, 70.0) == "69.6%");   // failed against a pass mark of 70
    CHECK(format_percent(69.6) == "70%");           // no mark to stay below
    CHECK(format_percent(0) == "0%");
}
