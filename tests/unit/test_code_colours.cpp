// Syntax colours of code blocks: which fences are coloured, the check every highlighter answer
// passes (a broken one leaves the code plain, never mis-sliced), and the app's part: the
// highlighter asked for only when such a block is shown, nothing waiting for it, the screen
// coloured once it answered.
#include "engine/code_colours.h"

#include <catch2/catch.hpp>

#include <string>

using namespace imquiz;

TEST_CASE("code colours: the fence languages that are coloured") {
    CHECK(coloured_language("python") == "python");
    CHECK(coloured_language("py") == "python");
    CHECK(coloured_language("Python") == "python");
    CHECK(coloured_language("c++") == "cpp");
    CHECK(coloured_language("CPP") == "cpp");
    CHECK(coloured_language("c") == "c");
    CHECK(coloured_language("sh") == "bash");
    CHECK(coloured_language("shell") == "bash");
    CHECK(coloured_language("console") == "bash");
    CHECK(coloured_language("json") == "json");
    CHECK(coloured_language("yml") == "yaml");
    CHECK(coloured_language("").empty());
    CHECK(coloured_language("rust").empty());
    CHECK(coloured_language("python ").empty());  // md4c gives the info string's first word: nothing to trim
    CHECK(coloured_language("pythonx").empty());
}

TEST_CASE("code colours: the highlighter's answer is checked before it reaches a block") {
    const std::string code = "def f():\n    return \"h\xC3\xA9llo\"";  // é is two bytes, at 22..23
    SECTION("a good answer becomes spans") {
        std::vector<CodeSpan> spans = read_code_spans(code, "0,3,0,4,1,4,13,6,0,20,8,1");
        REQUIRE(spans.size() == 4);
        CHECK(spans[0].begin == 0);
        CHECK(spans[0].length == 3);
        CHECK(spans[0].kind == CodeKind::Keyword);
        CHECK(spans[1].kind == CodeKind::Function);
        CHECK(spans[3].begin == 20);
        CHECK(spans[3].length == 8);
        CHECK(spans[3].kind == CodeKind::String);
        CHECK(code.substr(spans[2].begin, spans[2].length) == "return");
        CHECK(read_code_spans(code, "").empty());  // no colours: plain
        CHECK(read_code_spans(code, "0,28,11").size() == 1);  // the whole code, to its last byte
    }
    SECTION("hostile or broken answers leave the code plain") {
        const std::string broken[] = {
            "0,3",                      // not three numbers per span
            "0,3,0,",                   // a trailing comma
            ",0,3,0",                   // a leading one
            "0,3,0,,4,1,4",             // an empty number
            "0,3,12",                   // a kind past the last (CodeKind::Count)
            "0,3,99999999999",          // a kind far beyond
            "0,0,0",                    // an empty span
            "0,29,0",                   // past the end of the code
            "28,1,0",                   // begins at the end
            "4294967295,2,0",           // begin + length wraps around 32 bits
            "4294967296,1,0",           // does not fit 32 bits
            "00000000000000000000001,1,0",  // a number too long to be one of ours
            "4,1,4,0,3,0",              // out of order
            "0,4,0,3,2,1",              // overlapping
            "20,3,1",                   // ends inside é
            "23,5,1",                   // begins inside é
            "-1,3,0",                   // not a number
            "0x0,3,0",
            "0;3;0",
            " 0,3,0",
            "0,3,0\n",
            std::string("0,3\0,0", 6),  // a NUL inside (kept: a std::string, not a C string)
        };
        for (const std::string& answer : broken) {
            INFO(answer);
            CHECK(read_code_spans(code, answer).empty());
        }
        CHECK(read_code_spans("", "0,1,0").empty());
    }
    SECTION("any byte string: never a span outside the code or through a character") {
        std::uint32_t state = 12345;
        auto next = [&] { return state = state * 1103515245u + 12345u; };
        const char alphabet[] = "0123456789,,,9";
        for (int round = 0; round < 20000; ++round) {
            std::string answer;
            int length = static_cast<int>(next() % 24);
            for (int i = 0; i < length; ++i) answer += alphabet[(next() >> 16) % (sizeof alphabet - 1)];
            std::size_t covered = 0;
            for (const CodeSpan& span : read_code_spans(code, answer)) {
                REQUIRE(span.begin >= covered);
                REQUIRE(span.length > 0);
                REQUIRE(std::size_t{span.begin} + span.length <= code.size());
                REQUIRE((static_cast<unsigned char>(code[span.begin]) & 0xC0) != 0x80);
                covered = span.begin + span.length;
                REQUIRE((covered == code.size() || (static_cast<unsigned char>(code[covered]) & 0xC0) != 0x80));
            }
        }
    }
}

// ---- In the app: asked for only when shown, never waited for ----

#include "app/app.h"
#include "app/page_protocol.h"
#include "app/screen_model.h"
#include "app_test_support.h"

#include <nlohmann/json.hpp>

namespace {

// A Markdown bank whose first question shows Python and an uncoloured language, and whose
// second shows none.
const char* code_bank = R"({"format": "imquiz-bank", "version": 1, "id": "code", "title": "Code", "languages": ["en"], "defaultLanguage": "en",
  "textFormat": "markdown", "questions": [
    {"id": "q1", "type": "single_choice", "prompt": "Which?\n\n```python\ndef f(): pass\n```\n\n```rust\nfn main() {}\n```",
     "choices": [{"id": "a", "text": "One", "correct": true}, {"id": "b", "text": "Two"}]},
    {"id": "q2", "type": "single_choice", "prompt": "No code here, only `inline` code.",
     "choices": [{"id": "a", "text": "One", "correct": true}, {"id": "b", "text": "Two"}]}]})";

void open_code_bank(app::AppState& state, const std::string& bank = code_bank, const char* quiz = "code") {
    namespace memory = platform::memory;
    memory::World& world = memory::world();
    world.files["quizzes/index.json"] = R"({"format": "imquiz-catalog", "version": 1, "banks": [
        {"id": "code", "file": "code.json"}, {"id": "data-parallelism", "file": "data-parallelism.json"}]})";
    world.files["quizzes/code.json"] = bank;
    world.files["quizzes/data-parallelism.json"] = testing::source("quizzes/data-parallelism.json");
    world.url_parameters["quiz"] = quiz;
    app::start(state);
    for (int i = 0; i < 4; ++i) {
        memory::deliver_fetches();
        app::poll(state);
    }
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    return text.replace(text.find(from), from.size(), to);
}

const Block& code_block(const app::ScreenModel& screen, std::size_t index) {
    REQUIRE(screen.question.prompt_rich);
    std::size_t seen = 0;
    for (const Block& block : screen.question.prompt_rich->blocks)
        if (block.kind == Block::Kind::Code && seen++ == index) return block;
    FAIL("no code block " << index);
    return screen.question.prompt_rich->blocks.front();
}

}  // namespace

TEST_CASE("code colours in the app: drawn plain at once, coloured when the highlighter answered") {
    namespace memory = platform::memory;
    testing::fresh_world({}, false);
    memory::World& world = memory::world();
    world.code_highlighter = platform::CodeHighlighter::Loading;  // as on the web, before its script came
    app::AppState state;
    open_code_bank(state);

    app::ScreenModel screen = app::build_screen(state);
    REQUIRE(screen.question.present);  // the question did not wait
    CHECK(world.code_highlighter_requests > 0);
    CHECK(screen.code_colours_pending);
    CHECK(code_block(screen, 0).spans.empty());
    CHECK_FALSE(app::code_colours_arrived(screen.code_colours_pending));  // still on its way

    world.code_highlighter = platform::CodeHighlighter::Ready;
    world.code_colours = "0,3,0,4,1,4";
    CHECK(app::code_colours_arrived(screen.code_colours_pending));
    screen = app::build_screen(state);
    CHECK_FALSE(screen.code_colours_pending);
    const Block& python = code_block(screen, 0);
    REQUIRE(python.spans.size() == 2);
    CHECK(python.code.substr(python.spans[0].begin, python.spans[0].length) == "def");
    CHECK(python.spans[0].kind == CodeKind::Keyword);
    CHECK(python.spans[1].kind == CodeKind::Function);
    CHECK(code_block(screen, 1).spans.empty());   // rust: not coloured, and never asked about
    REQUIRE(world.highlighted.size() == 1);
    CHECK(world.highlighted[0] == "python");

    nlohmann::json page = nlohmann::json::parse(app::screen_to_page(state, screen));
    const nlohmann::json& block = page["question"]["promptRich"][1];
    CHECK(block["spans"] == nlohmann::json::parse(R"([[0, 3, "keyword"], [4, 1, "function"]])"));
    CHECK_FALSE(page["question"]["promptRich"][2].contains("spans"));

    SECTION("a broken answer leaves the code plain") {
        world.code_colours = "0,3,0,2,4,1";
        CHECK(code_block(app::build_screen(state), 0).spans.empty());
    }
    SECTION("a highlighter that failed: plain for good, and nothing waits") {
        world.code_highlighter = platform::CodeHighlighter::Failed;
        app::ScreenModel plain = app::build_screen(state);
        CHECK(code_block(plain, 0).spans.empty());
        CHECK_FALSE(plain.code_colours_pending);
        CHECK_FALSE(app::code_colours_arrived(plain.code_colours_pending));
    }
}

TEST_CASE("code colours in the app: the page protocol counts UTF-16 code units, as the page's strings do") {
    namespace memory = platform::memory;
    testing::fresh_world({}, false);
    memory::World& world = memory::world();
    world.code_highlighter = platform::CodeHighlighter::Ready;
    world.code_colours = "4,8,1,13,3,3";   // the string (é is 2 bytes, 😀 4), the comment
    app::AppState state;
    open_code_bank(state, replaced(code_bank, "def f(): pass", "s = \\\"\xC3\xA9\xF0\x9F\x98\x80\\\" # x"));
    app::ScreenModel screen = app::build_screen(state);
    REQUIRE(code_block(screen, 0).spans.size() == 2);
    nlohmann::json page = nlohmann::json::parse(app::screen_to_page(state, screen));
    const nlohmann::json& block = page["question"]["promptRich"][1];
    // In JavaScript: "s = \"é😀\" # x" has the string at 4..9 (😀 is two units), the comment at 10.
    CHECK(block["spans"] == nlohmann::json::parse(R"([[4, 5, "string"], [10, 3, "comment"]])"));
}

TEST_CASE("code colours in the app: plain banks and banks without such code never ask for the highlighter") {
    namespace memory = platform::memory;
    SECTION("a plain bank") {
        testing::fresh_world({});
        memory::world().code_highlighter = platform::CodeHighlighter::Loading;
        app::AppState plain;
        open_code_bank(plain, code_bank, "data-parallelism");
        app::ScreenModel screen = app::build_screen(plain);
        REQUIRE(screen.question.present);
        CHECK_FALSE(screen.code_colours_pending);
        CHECK(memory::world().code_highlighter_requests == 0);
    }
    SECTION("a Markdown bank with code in languages that are not coloured, and inline code") {
        testing::fresh_world({}, false);
        memory::world().code_highlighter = platform::CodeHighlighter::Loading;
        app::AppState state;
        open_code_bank(state, replaced(code_bank, "```python\\ndef f(): pass\\n```", "```\\nno language\\n```"));
        app::ScreenModel screen = app::build_screen(state);
        REQUIRE(screen.question.present);
        CHECK_FALSE(screen.code_colours_pending);
        CHECK(memory::world().code_highlighter_requests == 0);
    }
}
