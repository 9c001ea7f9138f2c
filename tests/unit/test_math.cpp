// Formulas of Markdown banks: the engine finds them with their paths, the app decodes the math
// module's answers (garbage must not crash, and keeps the TeX), TeX errors become the bank's
// diagnostics, the page protocol says what was typeset; the memory platform has no module.
#include "app/app.h"
#include "app/math.h"
#include "app/page_protocol.h"
#include "app/screen_model.h"
#include "engine/bank_loader.h"
#include "platform/memory/platform_memory.h"
#include "app_test_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <random>
#include <string>

using namespace imquiz;
using namespace imquiz::app;
using json = nlohmann::json;
namespace memory = imquiz::platform::memory;

namespace {

std::string math_bank() {
    json bank = {{"format", "imquiz-bank"}, {"version", 1}, {"id", "math"}, {"textFormat", "markdown"},
                 {"title", {{"en", "Math"}}}, {"languages", {"en"}}, {"defaultLanguage", "en"},
                 {"questions", json::array({
                     {{"id", "bubble"}, {"type", "true_false"}, {"answer", true},
                      {"prompt", {{"en", "Idle: $\\frac{p-1}{m+p-1}$ and $\\fracc{1}{2}$.\n\n$$\\sum_i t_i$$"}}},
                      {"explanation", {{"en", "| a |\n|---|\n| $\\alpha$ |"}}}}})}};
    return bank.dump();
}

// What the module would answer: the error for \fracc, a small SVG for anything else.
std::string fake_module(std::string_view tex, bool) {
    if (tex.find("\\fracc") != std::string_view::npos) return "error\nUndefined control sequence \\fracc";
    return "ok\n6.5\n3.2\n-1.1\n0 -1000 2800 1400\n<g fill=\"currentColor\"><rect width=\"10\" height=\"10\"/></g>";
}

// The catalog of one bank with formulas, and (`open`) that bank opened: only a quiz being played
// asks for the math module.
void boot_math_bank(AppState& state, platform::MathTypesetter typesetter, bool open = true) {
    imquiz::testing::fresh_world({{"lang", "en"}}, false);
    auto& world = memory::world();
    world.files["quizzes/index.json"] =
        R"({"format": "imquiz-catalog", "version": 1, "banks": [{"id": "math", "file": "math.json"}]})";
    world.files["quizzes/math.json"] = math_bank();
    world.math = typesetter;
    world.typeset = fake_module;
    start(state);
    for (int round = 0; round < 6; ++round) {
        memory::deliver_fetches();
        poll(state);
    }
    if (!open) return;
    REQUIRE(state.banks.size() == 1);
    apply(state, build_screen(state).catalog.cards.at(0).buttons.at(0).action);
    poll(state);
}

}  // namespace

TEST_CASE("math: the loader hands on each formula with its text's path") {
    BankLoadResult loaded = load_bank(math_bank(), "math.json");
    REQUIRE(loaded.bank);
    REQUIRE(loaded.formulas.size() == 4);
    CHECK(loaded.formulas[0].tex == "\\frac{p-1}{m+p-1}");
    CHECK_FALSE(loaded.formulas[0].display);
    CHECK(loaded.formulas[0].path == "questions[0].prompt.en");
    CHECK(loaded.formulas[2].tex == "\\sum_i t_i");
    CHECK(loaded.formulas[2].display);
    CHECK(loaded.formulas[3].tex == "\\alpha");          // in a table cell
    CHECK(loaded.formulas[3].path == "questions[0].explanation.en");
    SECTION("a plain bank has none: its dollars are dollars") {
        json plain = json::parse(math_bank());
        plain.erase("textFormat");
        CHECK(load_bank(plain.dump(), "plain.json").formulas.empty());
    }
}

TEST_CASE("math: the module's answer decodes, and garbage never crashes") {
    SECTION("a typeset formula") {
        auto formula = decode_math_answer("ok\n6.494\n3.236\n-1.091\n0 -960.5 2870.4 1430.4\n<g>\n<path d=\"M0 0\"/></g>");
        REQUIRE(formula);
        CHECK(formula->ok);
        CHECK(formula->width_ex == Approx(6.494f));
        CHECK(formula->height_ex == Approx(3.236f));
        CHECK(formula->vertical_align_ex == Approx(-1.091f));
        CHECK(formula->view_box == "0 -960.5 2870.4 1430.4");
        CHECK(formula->body == "<g>\n<path d=\"M0 0\"/></g>");   // the content runs to the end, newlines and all
        CHECK(formula_svg(*formula, 20, 10) ==
              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"10\" viewBox=\"0 -960.5 2870.4 1430.4\" "
              "preserveAspectRatio=\"none\" color=\"#ffffff\"><g>\n<path d=\"M0 0\"/></g></svg>");
    }
    SECTION("a TeX error keeps MathJax's words") {
        auto formula = decode_math_answer("error\nMissing close brace");
        REQUIRE(formula);
        CHECK_FALSE(formula->ok);
        CHECK(formula->error == "Missing close brace");
        CHECK(decode_math_answer("error\n")->error == "TeX error");
    }
    SECTION("torn, foreign or hostile answers are refused") {
        for (const char* answer : {"", "ok", "ok\n1\n2\n3\n0 0 1 1", "ok\n1\n2\n3\n0 0 1 1\n", "ok\nNaN\n2\n3\n0 0 1 1\n<g/>",
                                   "ok\n1e999\n2\n3\n0 0 1 1\n<g/>", "ok\n-1\n2\n3\n0 0 1 1\n<g/>", "ok\n1x\n2\n3\n0 0 1 1\n<g/>",
                                   "ok\n1\n2\n3\n0 0 1 1\" onload=\"x\n<g/>", "OK\n1\n2\n3\n0 0 1 1\n<g/>", "<svg>"})
            CHECK_FALSE(decode_math_answer(answer));
        std::mt19937 random(15);
        for (int i = 0; i < 2000; ++i) {
            std::string bytes(random() % 64, '\0');
            for (char& c : bytes) c = static_cast<char>(random() % 7 == 0 ? '\n' : random() % 256);
            if (i % 2) bytes = "ok\n" + bytes;
            auto formula = decode_math_answer(bytes);
            if (formula && formula->ok) CHECK(formula->view_box.find('"') == std::string::npos);
        }
    }
}

TEST_CASE("math: a catalog never asks for the module; a quiz with formulas does") {
    AppState state;
    boot_math_bank(state, platform::MathTypesetter::Ready, false);
    REQUIRE(state.banks.size() == 1);
    CHECK(state.banks[0].state == BankSlot::State::Ready);
    CHECK(memory::world().math_requests == 0);
    CHECK_FALSE(state.math.asked);
    apply(state, build_screen(state).catalog.cards.at(0).buttons.at(0).action);
    poll(state);
    CHECK(memory::world().math_requests >= 1);
    // The module is asked for that bank's formulas (the web reads its typeset formulas file first).
    CHECK(memory::world().math_bank == state.banks[0].url);
    CHECK_FALSE(memory::world().math_bank.empty());
}

TEST_CASE("math: a bank's formulas are typeset once the module is there; a TeX error is the card's, with its path") {
    AppState state;
    boot_math_bank(state, platform::MathTypesetter::Ready);
    REQUIRE(state.banks.size() == 1);
    CHECK(memory::world().math_requests >= 1);
    const TypesetFormula* bubble = state.math.find("\\frac{p-1}{m+p-1}", false);
    REQUIRE(bubble);
    CHECK(bubble->ok);
    CHECK(state.math.find("\\sum_i t_i", true));
    ScreenModel screen = build_screen(state);
    REQUIRE(screen.catalog.cards.size() == 1);
    const CardModel& card = screen.catalog.cards[0];
    CHECK(card.status == CardModel::Status::Ready);   // the bank plays
    CHECK(card.problems == std::vector<std::string>{
        "quizzes/math.json:questions[0].prompt.en: TeX error in \"\\fracc{1}{2}\": Undefined control sequence \\fracc"});
    json page = json::parse(with_items(screen_to_page(state, screen), "[]"));
    CHECK(page["banks"][0]["problems"].size() == 1);

    // The question's runs say which formulas were typeset, and why one was not.
    apply(state, card.buttons.at(0).action);
    page = json::parse(with_items(screen_to_page(state, build_screen(state)), "[]"));
    const json& runs = page["question"]["promptRich"][0]["runs"];
    json fraction, typo;
    for (const json& run : runs) {
        if (run["text"] == "\\frac{p-1}{m+p-1}") fraction = run;
        if (run["text"] == "\\fracc{1}{2}") typo = run;
    }
    CHECK(fraction["type"] == "math");
    CHECK(fraction["typeset"] == true);
    CHECK(typo["typeset"] == false);
    CHECK(typo["error"] == "Undefined control sequence \\fracc");
}

TEST_CASE("math: answers that come later (the web's worker) are waited for; the bank's errors are told once all have") {
    AppState state;
    // A module away from the main thread: "" for a formula until its answer is here.
    std::vector<std::string> asked;
    bool answered = false;
    boot_math_bank(state, platform::MathTypesetter::Ready, false);
    memory::world().typeset = [&](std::string_view tex, bool display) -> std::string {
        asked.push_back(std::string(display ? "D" : "I") + std::string(tex));
        return answered ? fake_module(tex, display) : "";
    };
    apply(state, build_screen(state).catalog.cards.at(0).buttons.at(0).action);
    for (int round = 0; round < 3; ++round) poll(state);
    // Asked for every formula; none typeset, no error told yet, the question plays with TeX.
    CHECK(asked.size() >= 4);
    CHECK(state.math.typeset.empty());
    ScreenModel screen = build_screen(state);
    CHECK(state.screen == Screen::Question);
    CHECK(state.banks.at(0).diagnostics.empty());
    json page = json::parse(with_items(screen_to_page(state, screen), "[]"));
    CHECK(page["question"]["promptRich"][0]["runs"][1]["typeset"] == false);

    // The answers come (the platform wakes the loop): drawn, and the TeX error told once.
    answered = true;
    CHECK(poll(state));
    for (int round = 0; round < 3; ++round) poll(state);
    REQUIRE(state.math.find("\\frac{p-1}{m+p-1}", false));
    CHECK(state.math.find("\\frac{p-1}{m+p-1}", false)->ok);
    REQUIRE(state.banks.at(0).diagnostics.size() == 1);
    CHECK(state.banks.at(0).diagnostics[0].message == "TeX error in \"\\fracc{1}{2}\": Undefined control sequence \\fracc");
    page = json::parse(with_items(screen_to_page(state, build_screen(state)), "[]"));
    CHECK(page["question"]["promptRich"][0]["runs"][1]["typeset"] == true);
    // Nothing is asked again once the bank is checked.
    const std::size_t asks = asked.size();
    for (int round = 0; round < 3; ++round) poll(state);
    CHECK(asked.size() == asks);
}

TEST_CASE("math: without a module (memory platform, or it failed to load) formulas stay TeX and the bank plays") {
    for (auto typesetter : {platform::MathTypesetter::Absent, platform::MathTypesetter::Failed}) {
        AppState state;
        boot_math_bank(state, typesetter);
        CHECK(state.math.unavailable);
        CHECK(state.math.typeset.empty());
        ScreenModel screen = build_screen(state);
        REQUIRE(screen.catalog.cards.size() == 1);
        CHECK(screen.catalog.cards[0].status == CardModel::Status::Ready);
        CHECK(screen.catalog.cards[0].problems.empty());
        json page = json::parse(with_items(screen_to_page(state, build_screen(state)), "[]"));
        CHECK(page["question"]["promptRich"][0]["runs"][1]["typeset"] == false);
    }
    SECTION("a bank without formulas never asks for the module") {
        AppState state;
        imquiz::testing::fresh_world({{"lang", "en"}});
        // The launch banks, as plain banks: their formulas are words then.
        const std::string markdown = "\"textFormat\": \"markdown\",";
        for (auto& [url, file] : memory::world().files) {
            const std::size_t at = file.find(markdown);
            if (url.rfind("quizzes/", 0) == 0 && at != std::string::npos) file.erase(at, markdown.size());
        }
        memory::world().math = platform::MathTypesetter::Ready;
        start(state);
        for (int round = 0; round < 6; ++round) {
            memory::deliver_fetches();
            poll(state);
        }
        CHECK(memory::world().math_requests == 0);
        CHECK_FALSE(state.math.asked);
    }
}

TEST_CASE("math: formula pictures are decoded when a frame wants them, kept while drawn, let go of when many are not") {
    AppState state;
    boot_math_bank(state, platform::MathTypesetter::Ready);
    auto& world = memory::world();
    const int before = world.picture_requests;
    const std::string key = picture_key(formula_key("x", false), 12, 8);
    // The memory platform decodes as it is asked (as the web does a picture it read ahead): the
    // texture is there when the call returns, and says so, for the frame to be laid out again.
    CHECK(update_math_pictures(state, {key}, {{key, "<svg/>", 12, 8}}));
    CHECK_FALSE(update_math_pictures(state, {key}, {{key, "<svg/>", 12, 8}}));   // asked for once only
    CHECK(world.picture_requests == before + 1);
    CHECK(world.picture_mimes.back() == "image/svg+xml");
    REQUIRE(state.math.picture(key));
    REQUIRE(state.math.picture(key)->texture != 0);
    CHECK(world.live_pictures.size() == 1);
    // Seventy other sizes, drawn once each; the one still drawn stays, the others go.
    for (int i = 0; i < 70; ++i) {
        std::string other = picture_key(formula_key("y", false), 10 + i, 8);
        update_math_pictures(state, {key, other}, {{other, "<svg/>", 10 + i, 8}});
        poll(state);
    }
    update_math_pictures(state, {key}, {});
    CHECK(state.math.picture(key));
    CHECK(state.math.pictures.size() <= 64);
    CHECK(world.live_pictures.size() == state.math.pictures.size());
}
