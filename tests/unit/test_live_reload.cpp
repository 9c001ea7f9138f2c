// Live reload (app/live_reload.cpp): a watched bank saved again while it is played. The desktop
// player's --watch tells the app through platform::take_changed_files; here the in-memory world
// does, so every step of the author's loop (edit, break, fix, delete a question) is checked on
// the screen model the canvas draws.
#include "app/app.h"
#include "app/screen_model.h"
#include "platform/memory/platform_memory.h"

#include "app_test_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using namespace imquiz;
using namespace imquiz::app;
using json = nlohmann::json;
namespace memory = imquiz::platform::memory;

namespace {

constexpr const char* bank_url = "/home/author/quizzes/data-parallelism.json";

struct Author {
    AppState state;
    json bank = json::parse(testing::source("quizzes/data-parallelism.json"));

    Author() {
        testing::fresh_world({{"lang", "en"}}, false);
        memory::world().development_bank_url = bank_url;
        memory::world().files[bank_url] = bank.dump(2);
        start(state);
        settle();
    }
    void settle() {
        for (int round = 0; round < 10; ++round) {
            memory::deliver_fetches();
            poll(state);
        }
    }
    // The author saves the file; the watcher reports it.
    void save(const std::string& text) {
        memory::world().files[bank_url] = text;
        memory::world().changed_files.push_back(bank_url);
        settle();
    }
    void save() { save(bank.dump(2)); }
    ScreenModel screen() const { return build_screen(state); }
    void act(Action::Kind kind) { apply(state, Action::of(kind)); }
    // Answers the question on screen with its first choice (any answer will do here).
    void answer_and_go_on() {
        ScreenModel s = screen();
        REQUIRE(s.question.present);
        if (s.question.choices.empty()) {
            Action typed = Action::of(Action::Kind::SetTypedAnswer);
            typed.text = "1";
            apply(state, typed);
        } else {
            apply(state, s.question.choices.front().action);
        }
        act(Action::Kind::Check);
        act(Action::Kind::Next);
    }
};

}  // namespace

TEST_CASE("live reload: an edited bank replaces the one in play, on the same question") {
    Author author;
    REQUIRE(author.screen().screen == Screen::Question);
    author.answer_and_go_on();
    const ScreenModel before = author.screen();
    REQUIRE(before.question.index == 2);
    const std::string on_screen = before.question.id;

    author.bank["title"] = "Data parallelism, second draft";
    author.save();
    ScreenModel after = author.screen();
    REQUIRE(after.screen == Screen::Question);
    CHECK(after.question.id == on_screen);
    CHECK(after.question.index == 2);
    CHECK(after.question.quiz_title == "Data parallelism, second draft");
    CHECK_FALSE(after.notice);
    // The first answer is still counted: the progress bar has not gone back.
    CHECK(after.question.progress == Approx(before.question.progress));
}

TEST_CASE("live reload: a broken save is told with file and path; the last good version plays on until it is fixed") {
    Author author;
    author.answer_and_go_on();
    const std::string on_screen = author.screen().question.id;
    const std::string good_title = author.screen().question.quiz_title;

    json broken = author.bank;
    broken["questions"][0].erase("prompt");
    author.save(broken.dump(2));
    ScreenModel s = author.screen();
    REQUIRE(s.notice);
    CHECK(s.notice->text.find("The saved file has problems") != std::string::npos);
    CHECK(s.notice->text.find(std::string(bank_url) + ":questions[0]") != std::string::npos);
    CHECK(s.notice->text.find("prompt") != std::string::npos);
    REQUIRE(s.screen == Screen::Question);
    CHECK(s.question.id == on_screen);  // the last good version, still playable
    CHECK(s.question.quiz_title == good_title);
    author.answer_and_go_on();
    CHECK(author.screen().question.index == 3);

    // Not even JSON (a save caught half-written): told the same way.
    author.save("{\"id\": \"data-parallelism\", ");
    REQUIRE(author.screen().notice);
    CHECK(author.screen().notice->text.find(bank_url) != std::string::npos);

    // Set aside until the next save, then fixed: the notice goes, the quiz goes on.
    author.act(Action::Kind::DismissNotice);
    CHECK_FALSE(author.screen().notice);
    author.save(broken.dump(2));
    CHECK(author.screen().notice);
    author.save();
    CHECK_FALSE(author.screen().notice);
    CHECK(author.screen().question.index == 3);
}

TEST_CASE("live reload: a question deleted while on screen gives way to the one at its place") {
    Author author;
    author.answer_and_go_on();
    const ScreenModel before = author.screen();
    json shorter = author.bank;
    auto& questions = shorter["questions"];
    const std::size_t total = questions.size();
    for (std::size_t i = 0; i < questions.size(); ++i)
        if (questions[i]["id"] == before.question.id) {
            questions.erase(i);
            break;
        }
    REQUIRE(questions.size() == total - 1);
    author.save(shorter.dump(2));
    ScreenModel after = author.screen();
    REQUIRE(after.screen == Screen::Question);
    CHECK_FALSE(after.notice);
    CHECK(after.question.id != before.question.id);
    CHECK(after.question.total == before.question.total - 1);
}

TEST_CASE("live reload: a bank that never loaded opens once a save fixes it") {
    testing::fresh_world({{"lang", "en"}}, false);
    json bank = json::parse(testing::source("quizzes/data-parallelism.json"));
    json broken = bank;
    broken.erase("questions");
    memory::world().development_bank_url = bank_url;
    memory::world().files[bank_url] = broken.dump();
    AppState state;
    start(state);
    for (int i = 0; i < 5; ++i) {
        memory::deliver_fetches();
        poll(state);
    }
    REQUIRE(build_screen(state).screen != Screen::Question);
    memory::world().files[bank_url] = bank.dump();
    memory::world().changed_files.push_back(bank_url);
    for (int i = 0; i < 5; ++i) {
        memory::deliver_fetches();
        poll(state);
    }
    CHECK(build_screen(state).screen == Screen::Question);
}
