// Shared by the native tests of app/: the repository's files, and a fresh in-memory world that
// serves the shipped catalog and banks as the site would.
#pragma once

#include "app/app.h"
#include "app/page_protocol.h"
#include "app/screen_model.h"
#include "platform/memory/platform_memory.h"

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace imquiz::testing {

// A file of the repository, by its path from the top ("quizzes/index.json").
inline std::string source(const std::string& relative) {
    std::ifstream in(std::string(IMQUIZ_SOURCE_DIR) + "/" + relative, std::ios::binary);
    REQUIRE(in);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// Resets the in-memory platform: the URL's parameters, a font, and (when `shipped`) the shipped
// catalog and both launch banks.
inline void fresh_world(std::map<std::string, std::string> url, bool shipped = true) {
    namespace memory = imquiz::platform::memory;
    memory::reset();
    auto& world = memory::world();
    // bank=: the page passes the link on only where the deployment allows it (web/boot.js).
    if (url.count("bank")) world.development_bank_url = url["bank"];
    world.url_parameters = std::move(url);
    world.files["fonts/imquiz-sans.ttf"] = "font bytes";
    if (shipped)
        for (const char* file : {"quizzes/index.json", "quizzes/data-parallelism.json", "quizzes/model-pipeline-parallelism.json"})
            world.files[file] = source(file);
}

// One app on a fresh in-memory world (fresh_world), driven as the page drives it.
using Url = std::map<std::string, std::string>;

struct TestApp {
    app::AppState state;

    explicit TestApp(Url url = {}, bool shipped = true) { fresh_world(std::move(url), shipped); }

    // start(), then deliver fetches until nothing more is asked for.
    void boot() {
        app::start(state);
        settle();
    }
    void settle() {
        namespace memory = imquiz::platform::memory;
        for (int round = 0; round < 10; ++round) {
            std::size_t asked = memory::world().fetched.size();
            memory::deliver_fetches();
            app::poll(state);
            if (memory::world().fetched.size() == asked) break;
        }
    }
    app::ScreenModel screen() const { return app::build_screen(state); }
    // The page protocol, as the page would receive it.
    nlohmann::json page() const { return nlohmann::json::parse(app::with_items(app::screen_to_page(state, app::build_screen(state)), "[]")); }
    // An action as the page (mirror, text field, a test) sends it.
    void send(const nlohmann::json& action) {
        namespace memory = imquiz::platform::memory;
        memory::world().page_actions.push_back(action.dump());
        app::poll(state);
    }
    void press(const app::ButtonModel& button) {
        REQUIRE(button.enabled);
        app::apply(state, button.action);
    }
    void act(const app::Action& action) { app::apply(state, action); }
};

// Boots `app` on `bank` (JSON) as the only quiz of a catalog, opened by quiz= in `language`: its
// progress is kept as a published quiz's is (a bank= link's is kept apart).
inline void boot_with_quiz(TestApp& app, const std::string& bank, const std::string& language) {
    namespace memory = imquiz::platform::memory;
    memory::world().url_parameters = {{"quiz", "sample"}, {"lang", language}};
    memory::world().files["quizzes/index.json"] =
        R"({"format": "imquiz-catalog", "version": 1, "banks": [{"id": "sample", "file": "sample.json"}]})";
    memory::world().files["quizzes/sample.json"] = bank;
    app.boot();
}

// The one card of a catalog of one bank.
inline const app::CardModel& only_card(const app::ScreenModel& screen) {
    REQUIRE(screen.catalog.cards.size() == 1);
    return screen.catalog.cards[0];
}

// Answers the question on screen right or wrong (engine_test_support.h's five_questions bank),
// checks, goes on.
inline void answer_five_questions(TestApp& app, bool right) {
    const app::QuestionModel q = app.screen().question;
    if (q.id == "capital") app.send({{"type", "select"}, {"choice", right ? "paris" : "lyon"}});
    else if (q.id == "primes")
        for (const char* choice : right ? std::vector<const char*>{"two", "three", "five"} : std::vector<const char*>{"four"})
            app.send({{"type", "select"}, {"choice", choice}});
    else if (q.id == "earth-flat") app.send({{"type", "select"}, {"choice", right ? "false" : "true"}});
    else if (q.id == "pi") app.send({{"type", "type"}, {"text", right ? "3.14" : "3"}});
    else app.send({{"type", "type"}, {"text", right ? "hedgehog" : "cat"}});
    app.send({{"type", "check"}});
    REQUIRE(app.screen().question.checked);
    app.send({{"type", "next"}});
}

// Answers the questions on screen (five_questions) to the results, the first `right` of them right.
inline void answer_to_results(TestApp& app, int right) {
    int answered = 0;
    while (app.screen().screen == app::Screen::Question) answer_five_questions(app, answered++ < right);
    REQUIRE(app.screen().screen == app::Screen::Results);
}

}  // namespace imquiz::testing
