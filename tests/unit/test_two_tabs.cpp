// Two tabs of one deployment share one storage: each tab reads, merges and writes the progress
// record, and hears of the other's writes only afterwards (the browser's `storage` event). Here
// two apps run on one in-memory world; the test plays the browser: it hands each write to the
// other tab as a storage event, and replays the race of two tabs that read the record before
// either wrote it (what Firefox's and WebKit's separate tab processes do when two attempts
// finish in the same instant).
#include "app/app.h"
#include "app/screen_model.h"
#include "platform/memory/platform_memory.h"

#include "app_test_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

using namespace imquiz;
using namespace imquiz::app;
using json = nlohmann::json;
namespace memory = imquiz::platform::memory;
using imquiz::testing::fresh_world;
using imquiz::testing::source;

namespace {

const std::string progress_key = "progress.data-parallelism";

// One tab: its own app state on the shared world (the world is not reset per tab).
struct Tab {
    AppState state;

    // `salt` is the tab's random draw: two tabs started in the same millisecond differ by it.
    void boot(std::uint64_t salt) {
        memory::world().random = salt;
        start(state);
        for (int round = 0; round < 10; ++round) {
            std::size_t asked = memory::world().fetched.size();
            memory::deliver_fetches();
            poll(state);
            if (memory::world().fetched.size() == asked) break;
        }
    }
    void send(const json& action) {
        memory::world().page_actions.push_back(action.dump());
        poll(state);
    }
    // The browser's storage event: another tab changed `key`.
    void hear_storage_event(const std::string& key) {
        memory::world().changed_storage_keys.push_back(key);
        poll(state);
    }
    ScreenModel screen() const { return build_screen(state); }
};

// Does what a page action does in one tab and, as the browser would, tells the other tab when
// the stored record changed.
void act(Tab& tab, Tab& other, const json& action) {
    const std::string before = memory::world().storage[progress_key];
    tab.send(action);
    if (memory::world().storage[progress_key] != before) other.hear_storage_event(progress_key);
}

void answer_right(Tab& tab, Tab& other, const json& bank) {
    ScreenModel screen = tab.screen();
    REQUIRE(screen.screen == Screen::Question);
    for (const auto& question : bank["questions"])
        if (question["id"] == screen.question.id)
            for (const auto& choice : question["choices"])
                if (choice.value("correct", false)) act(tab, other, {{"type", "select"}, {"choice", choice["id"]}});
    act(tab, other, {{"type", "check"}});
}

json stored_record() { return json::parse(memory::world().storage.at(progress_key)); }

std::size_t attempts_on_card(const Tab& tab) {
    for (const auto& card : tab.screen().catalog.cards)
        if (card.key == "data-parallelism") return card.attempts;
    FAIL("no card data-parallelism");
    return 0;
}

}  // namespace

TEST_CASE("two tabs: attempts finished in the same instant are both kept (regression: the last writer dropped the other's)") {
    // Which tab's write is lost: the one that wrote first (the other overwrote it unseen).
    const bool first_writes_last = GENERATE(false, true);
    CAPTURE(first_writes_last);

    fresh_world({{"quiz", "data-parallelism"}, {"lang", "en"}});
    auto& world = memory::world();
    const json bank = json::parse(source("quizzes/data-parallelism.json"));
    const std::size_t questions = bank["questions"].size();

    Tab first, second;
    first.boot(1);
    second.boot(2);
    REQUIRE(first.screen().screen == Screen::Question);
    // The second tab starts an attempt of its own, as in faults.test.mjs.
    act(second, first, {{"type", "start-over"}, {"bank", "data-parallelism"}});
    for (std::size_t n = 0; n + 1 < questions; ++n) {
        answer_right(first, second, bank);
        act(first, second, {{"type", "next"}});
        answer_right(second, first, bank);
        act(second, first, {{"type", "next"}});
    }
    answer_right(first, second, bank);
    answer_right(second, first, bank);

    // The race: both tabs read the record as it is now, merge their finished attempt in and
    // write; the second write replaces the first, unseen. Then each tab hears of the other's.
    Tab& lost = first_writes_last ? second : first;
    Tab& last = first_writes_last ? first : second;
    const auto before_race = world.storage;
    lost.send({{"type", "next"}});
    world.storage = before_race;
    last.send({{"type", "next"}});
    REQUIRE(first.screen().screen == Screen::Results);
    REQUIRE(second.screen().screen == Screen::Results);
    const json raced = stored_record();
    REQUIRE(raced["finished"].size() == 1);  // what the race leaves before the tabs hear of it

    // Each write is a storage event in the other tab, until neither writes any more; a tab that
    // answered every write with one of its own would never get here (ping-pong).
    int writes = 0;
    std::string heard = world.storage.at(progress_key);
    lost.hear_storage_event(progress_key);
    last.hear_storage_event(progress_key);
    for (int round = 0; round < 10 && world.storage.at(progress_key) != heard; ++round) {
        ++writes;
        heard = world.storage.at(progress_key);
        first.hear_storage_event(progress_key);
        second.hear_storage_event(progress_key);
    }
    CHECK(world.storage.at(progress_key) == heard);
    CHECK(writes == 1);  // the tab whose attempt was missing wrote it back, once

    const json record = stored_record();
    CHECK(record["finished"].size() == 2);
    CHECK_FALSE(record.contains("inProgress"));  // a finished attempt beats the same one in progress
    std::set<std::string> ids;
    for (const auto& attempt : record["finished"]) ids.insert(attempt["attemptId"].get<std::string>());
    CHECK(ids.size() == 2);
    CHECK(first.screen().notice == std::nullopt);
    CHECK(second.screen().notice == std::nullopt);

    // Both tabs show both attempts in the catalog.
    for (Tab* tab : {&first, &second}) {
        tab->send({{"type", "catalog"}});
        REQUIRE(tab->screen().screen == Screen::Catalog);
        CHECK(attempts_on_card(*tab) == 2);
    }
}

TEST_CASE("two tabs: an event that brings nothing new is not written back (no ping-pong)") {
    fresh_world({{"quiz", "data-parallelism"}, {"lang", "en"}});
    auto& world = memory::world();
    const json bank = json::parse(source("quizzes/data-parallelism.json"));

    Tab first, second;
    first.boot(1);
    second.boot(2);
    // Each tab in an attempt of its own, neither finished: the stored record holds one attempt in
    // progress (the last writer's); the other tab must not answer with its own.
    act(second, first, {{"type", "start-over"}, {"bank", "data-parallelism"}});
    answer_right(first, second, bank);
    const std::string after_first = world.storage.at(progress_key);
    second.hear_storage_event(progress_key);
    CHECK(world.storage.at(progress_key) == after_first);

    SECTION("a record another tab deleted is not brought back by an event") {
        world.storage.erase(progress_key);
        second.hear_storage_event(progress_key);
        CHECK(world.storage.count(progress_key) == 0);
    }
}
