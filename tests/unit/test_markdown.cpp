// Markdown texts: md4c's events into the rich-text model every rendering draws, and what an
// author is told to fix.
#include "engine/markdown.h"

#include <catch2/catch.hpp>

#include <random>

using namespace imquiz;

namespace {
RichText parse_markdown(std::string_view markdown) { return read_markdown(markdown).text; }

const Inline& run(const RichText& text, std::size_t block, std::size_t index) {
    REQUIRE(block < text.blocks.size());
    REQUIRE(index < text.blocks[block].inlines.size());
    return text.blocks[block].inlines[index];
}
}  // namespace

TEST_CASE("markdown: paragraphs, emphasis, strong, code and line breaks") {
    RichText text = parse_markdown("Call *`no_sync()`* on **every** rank.\nThen step.  \nDone.\n\nSecond *para*.");
    REQUIRE(text.blocks.size() == 2);
    CHECK(text.blocks[0].kind == Block::Kind::Paragraph);
    CHECK(run(text, 0, 0).text == "Call ");
    CHECK(run(text, 0, 1).kind == Inline::Kind::Code);
    CHECK(run(text, 0, 1).text == "no_sync()");
    CHECK(run(text, 0, 1).style == Inline::Emphasis);
    CHECK(run(text, 0, 3).text == "every");
    CHECK(run(text, 0, 3).style == Inline::Strong);
    CHECK(run(text, 0, 4).text == " rank. Then step.");  // a soft break is a space
    CHECK(run(text, 0, 5).kind == Inline::Kind::LineBreak);
    CHECK(run(text, 0, 6).text == "Done.");
    CHECK(plain_text(text) == "Call no_sync() on every rank. Then step.\nDone.\n\nSecond para.");
    CHECK_FALSE(is_plain(text));
    CHECK(is_plain(parse_markdown("Just words, no marks.")));
}

TEST_CASE("markdown: fenced code keeps its language, lines and indentation") {
    RichText text = parse_markdown("Before:\n\n```python\nwith model.no_sync():\n    loss.backward()\n```\n");
    REQUIRE(text.blocks.size() == 2);
    const Block& code = text.blocks[1];
    CHECK(code.kind == Block::Kind::Code);
    CHECK(code.language == "python");
    CHECK(code.code == "with model.no_sync():\n    loss.backward()");
    // Markdown inside code is code.
    CHECK(parse_markdown("```\n**not bold** <b>\n```").blocks[0].code == "**not bold** <b>");
}

TEST_CASE("markdown: bulleted, numbered and nested lists carry their markers and depth") {
    RichText text = parse_markdown("- one\n- two\n  1. inner\n  2. next\n- three\n\n3. from three\n4. four");
    std::vector<std::pair<std::string, int>> seen;
    for (const Block& block : text.blocks) seen.emplace_back(block.marker + " " + plain_text(RichText{{block}}), block.depth);
    std::vector<std::pair<std::string, int>> expected = {
        {"• • one", 1}, {"• • two", 1}, {"1. 1. inner", 2}, {"2. 2. next", 2}, {"• • three", 1}, {"3. 3. from three", 1},
        {"4. 4. four", 1}};
    CHECK(seen == expected);
}

TEST_CASE("markdown: links, images, math, tables, headings, quotes and rules") {
    RichText link = parse_markdown("See [the guide](https://pytorch.org/docs) now.");
    CHECK(run(link, 0, 1).text == "the guide");
    CHECK(run(link, 0, 1).link == "https://pytorch.org/docs");
    CHECK(run(link, 0, 2).link.empty());

    RichText image = parse_markdown("![A **four-stage** schedule](images/schedule.svg)");
    CHECK(run(image, 0, 0).kind == Inline::Kind::Image);
    CHECK(run(image, 0, 0).text == "A four-stage schedule");
    CHECK(run(image, 0, 0).link == "images/schedule.svg");

    RichText math = parse_markdown("Bubble: $\\frac{p-1}{m+p-1}$, or\n\n$$t = (m + p - 1)\\,t_s$$");
    CHECK(run(math, 0, 1).kind == Inline::Kind::Math);
    CHECK(run(math, 0, 1).text == "\\frac{p-1}{m+p-1}");
    CHECK(run(math, 1, 0).kind == Inline::Kind::DisplayMath);
    CHECK(run(math, 1, 0).text == "t = (m + p - 1)\\,t_s");

    RichText table = parse_markdown("| Stage | Time |\n|:---|---:|\n| forward | *2* ms |\n| backward | 4 ms |");
    REQUIRE(table.blocks.size() == 1);
    const Block& t = table.blocks[0];
    CHECK(t.kind == Block::Kind::Table);
    CHECK(t.header_rows == 1);
    REQUIRE(t.rows.size() == 3);
    CHECK(t.align == "lr");
    CHECK(t.rows[1][1][0].text == "2");
    CHECK(t.rows[1][1][0].style == Inline::Emphasis);
    CHECK(plain_text(table) == "Stage | Time\nforward | 2 ms\nbackward | 4 ms");

    RichText mixed = parse_markdown("## Heading\n\n> quoted\n\n---\n\n~~gone~~ &amp; &#x2014; &bogus;");
    REQUIRE(mixed.blocks.size() == 4);
    CHECK(mixed.blocks[0].kind == Block::Kind::Heading);
    CHECK(mixed.blocks[0].level == 2);
    CHECK(mixed.blocks[1].quote);
    CHECK(mixed.blocks[2].kind == Block::Kind::Rule);
    CHECK(run(mixed, 3, 0).style == Inline::Strikethrough);
    CHECK(run(mixed, 3, 1).text == " & \xE2\x80\x94 &bogus;");
}

TEST_CASE("markdown: raw HTML is text, never markup") {
    RichText text = parse_markdown("<script>alert(1)</script> and <img src=x onerror=alert(1)>\n\n<div>block</div>");
    CHECK(plain_text(text) == "<script>alert(1)</script> and <img src=x onerror=alert(1)>\n\n<div>block</div>");
    for (const Block& block : text.blocks)
        for (const Inline& r : block.inlines) CHECK(r.kind == Inline::Kind::Text);
}

TEST_CASE("markdown: what an author must fix is said, with the text at fault") {
    auto problems = [](const char* markdown) { return read_markdown(markdown).problems; };
    CHECK(problems("![](images/a.svg)") ==
          std::vector<std::string>{"the image images/a.svg has no alt text: say what it shows, as in ![a schedule of "
                                   "four stages](images/a.svg)"});
    CHECK(problems("![x](images/a.gif)") ==
          std::vector<std::string>{"the image images/a.gif is not a PNG, JPEG, WebP or SVG file"});
    CHECK(problems("![x](https://example.org/a.png)").size() == 1);
    CHECK(problems("![x](/abs/a.png)").size() == 1);
    CHECK(problems("[x](javascript:alert(1))") ==
          std::vector<std::string>{"the link \"javascript:alert(1)\" must start with https://, http:// or mailto:"});
    CHECK(problems("| a |\n|---|\n| [x](data:text/html,hi) |").size() == 1);
    CHECK(problems("[ok](https://a.org) [ok](mailto:a@b.org) ![ok](img/A.PNG) ![ok](b.jpeg?v=2)").empty());
}

TEST_CASE("markdown: a bank's check of a text skips md4c only where the reading would find nothing") {
    // markdown_use does not read a text without "[", "<" or "$": each of these says what the
    // full reading says (problems, formulas, images), read or skipped.
    const char* const texts[] = {
        "Plain words, *emphasis*, **strong**, `code` and\n\n```python\nx = [1]\n```", "javascript:alert(1)",
        "ftp://example.org/a.png www.example.org https://example.org", "&#91;x&#93;(javascript:y) &lt;javascript:y&gt;",
        "| a | b |\n|---|---|\n| c | d |", "\\[x\\](javascript:y)", "<javascript:alert(1)>", "<https://example.org>",
        "[x][r]\n\n[r]: javascript:alert(1)", "![](images/a.svg)", "![a](images/a.gif) and $x^2$", "$$\\frac{1}{2}$$",
        "a $ b", "[x](https://example.org)", "![schedule](images/s.svg)", "", "Write to a@b.org or x@y.z:",
        "$$\n\\sum_i x_i\n$$ and $a +\n  b$",
    };
    for (const char* text : texts) {
        INFO(text);
        const ParsedMarkdown read = read_markdown(text);
        const MarkdownUse use = markdown_use(text);
        CHECK(use.problems == read.problems);
        std::vector<std::pair<std::string, bool>> formulas;
        for (const Inline* run : math_runs(read.text)) formulas.emplace_back(run->text, run->kind == Inline::Kind::DisplayMath);
        CHECK(use.formulas == formulas);
        std::vector<std::string> files;
        for (std::string& source : image_sources(read.text))
            if (image_source_problem(source).empty()) files.push_back(source);
        CHECK(use.images == files);
    }
    CHECK(markdown_use("<javascript:alert(1)>").problems.size() == 1);   // an autolink, though it has no "["
    CHECK(markdown_use("[x][r]\n\n[r]: javascript:alert(1)").problems.size() == 1);
    CHECK(markdown_use("a $x$").formulas.size() == 1);
}

TEST_CASE("markdown: the web module's answer decodes to the same text, and garbage decodes safely") {
    ParsedMarkdown parsed =
        read_markdown("# T\n\n- *a* [b](https://c) `d`\n  1. **n**\n\n> q\n\n| x | y |\n|:-|-:|\n| $m$ | ![](e.gif) |\n\n```c\nz\n```");
    REQUIRE(parsed.problems.size() == 2);  // no alt text, not a PNG/JPEG/WebP/SVG
    std::string bytes = encode_parsed_markdown(parsed);
    ParsedMarkdown back = decode_parsed_markdown(bytes);
    CHECK(encode_parsed_markdown(back) == bytes);
    CHECK(plain_text(back.text) == plain_text(parsed.text));
    CHECK(back.problems == parsed.problems);
    REQUIRE(back.text.blocks.size() == parsed.text.blocks.size());
    for (std::size_t i = 0; i < back.text.blocks.size(); ++i) {
        CHECK(back.text.blocks[i].kind == parsed.text.blocks[i].kind);
        CHECK(back.text.blocks[i].depth == parsed.text.blocks[i].depth);
        CHECK(back.text.blocks[i].quote == parsed.text.blocks[i].quote);
        CHECK(back.text.blocks[i].align == parsed.text.blocks[i].align);
    }
    // Every truncation and thousands of random corruptions: no crash, no read past the end, and
    // a count no bigger than what is left (a garbled count of 4 billion allocates nothing).
    for (std::size_t cut = 0; cut < bytes.size(); ++cut) CHECK(decode_parsed_markdown(bytes.substr(0, cut)).text.blocks.empty());
    std::mt19937 random(7);
    for (int round = 0; round < 3000; ++round) {
        std::string garbled = bytes;
        for (int i = 0; i < 4; ++i) garbled[random() % garbled.size()] = static_cast<char>(random());
        (void)decode_parsed_markdown(garbled);
    }
    CHECK(decode_parsed_markdown(std::string("\xFF\xFF\xFF\xFF", 4)).text.blocks.empty());
}

TEST_CASE("markdown: hostile input parses in bounded time and never crashes") {
    std::string deep(20000, '>');
    deep += " x";
    CHECK(plain_text(parse_markdown(deep)) == "x");
    std::string nested;
    for (int i = 0; i < 5000; ++i) nested += std::string(static_cast<std::size_t>(i % 40) * 2, ' ') + "- item\n";
    CHECK(parse_markdown(nested).blocks.size() == 5000);
    std::string stars(100000, '*');
    CHECK_FALSE(parse_markdown(stars).blocks.empty());
    std::string brackets;
    for (int i = 0; i < 20000; ++i) brackets += "[a](";
    CHECK_FALSE(parse_markdown(brackets).blocks.empty());
    std::string binary;
    for (int i = 0; i < 4096; ++i) binary.push_back(static_cast<char>(i * 37));
    (void)parse_markdown(binary);
    CHECK(plain_text(parse_markdown(std::string("a\0b", 3))) == "a\xEF\xBF\xBD" "b");
}

// ---- Markdown banks: "textFormat", checked texts, written back ----

#include "engine/bank_writer.h"
#include "engine_test_support.h"

namespace {
std::string markdown_bank(std::string_view questions, std::string_view format = "markdown") {
    std::string json = testing::bank_json(questions);
    return json.insert(json.find("\"title\""), "\"textFormat\": \"" + std::string(format) + "\",\n  ");
}
const char* const image_without_alt = R"json([{"id": "q", "type": "single_choice",
  "prompt": {"en": "Which stage? ![](images/s.svg)", "ru": "Какой этап? ![этапы](images/s.svg)"},
  "explanation": "See [the docs](javascript:alert(1)).",
  "choices": [{"id": "a", "text": "**A**", "correct": true}, {"id": "b", "text": "`B`"}]},
  {"id": "t", "type": "short_text", "prompt": "Type it", "explanation": "It.", "accept": ["[x](javascript:y)"]}])json";
}  // namespace

TEST_CASE("markdown banks: each problem is an error at its text's path, the plain bank has none") {
    CHECK(testing::bank_problems(markdown_bank(image_without_alt)) ==
          std::vector<std::string>{
              "b.json:questions[0].prompt.en: error: the image images/s.svg has no alt text: say what it shows, as in "
              "![a schedule of four stages](images/s.svg)",
              "b.json:questions[0].explanation: error: the link \"javascript:alert(1)\" must start with https://, "
              "http:// or mailto:"});
    // The same texts in a plain bank are plain words: nothing to check, nothing parsed.
    CHECK(testing::bank_problems(markdown_bank(image_without_alt, "plain")).empty());
    CHECK(testing::bank_problems(testing::bank_json(image_without_alt)).empty());
    CHECK(testing::bank_problems(markdown_bank(testing::five_questions, "html")) ==
          std::vector<std::string>{"b.json:textFormat: error: textFormat must be \"plain\" or \"markdown\", got \"html\""});
}

TEST_CASE("markdown banks: textFormat is kept when a bank is written back") {
    Bank bank = testing::load_valid_bank(markdown_bank(testing::five_questions));
    REQUIRE(bank.text_format == TextFormat::Markdown);
    std::string written = bank_to_json(bank);
    CHECK(written.find("\"textFormat\": \"markdown\"") != std::string::npos);
    CHECK(testing::load_valid_bank(written).text_format == TextFormat::Markdown);
    CHECK(bank_to_json(testing::load_valid_bank(testing::bank_json(testing::five_questions))).find("textFormat") ==
          std::string::npos);
}

// ---- Markdown banks in the app: the parser waited for, the screen model's blocks ----

#include "app/app.h"
#include "app/page_protocol.h"
#include "app/screen_model.h"
#include "app_test_support.h"
#include "readme_examples.h"

#include <nlohmann/json.hpp>

namespace {
std::string readme_markdown_bank() {
    std::string bank = testing::readme_example(testing::source("quizzes/README.md"), "markdown bank");
    REQUIRE_FALSE(bank.empty());
    return bank;
}
}  // namespace

TEST_CASE("markdown banks in the app: the parser is waited for, and plain banks never ask for it") {
    namespace memory = platform::memory;
    testing::fresh_world({{"quiz", "markdown-sampler"}}, false);
    memory::World& world = memory::world();
    world.files["quizzes/index.json"] = R"({"format": "imquiz-catalog", "version": 1, "banks": [
        {"id": "markdown-sampler", "file": "markdown-sampler.json"},
        {"id": "data-parallelism", "file": "data-parallelism.json"}]})";
    world.files["quizzes/markdown-sampler.json"] = readme_markdown_bank();
    world.files["quizzes/data-parallelism.json"] = testing::source("quizzes/data-parallelism.json");
    world.markdown = platform::MarkdownParser::Loading;  // as on the web, before its module came

    app::AppState state;
    app::start(state);
    for (int i = 0; i < 4; ++i) {
        memory::deliver_fetches();
        app::poll(state);
    }
    CHECK(world.markdown_requests > 0);
    CHECK_FALSE(app::build_screen(state).question.present);  // still waiting for the parser

    world.markdown = platform::MarkdownParser::Ready;
    app::poll(state);
    app::ScreenModel screen = app::build_screen(state);
    REQUIRE(screen.question.present);
    CHECK(screen.question.prompt.rfind("What does this loop skip on the first three micro-batches?", 0) == 0);
    REQUIRE(screen.question.prompt_rich);
    const RichText& prompt = *screen.question.prompt_rich;
    REQUIRE(prompt.blocks.size() == 2);
    CHECK(prompt.blocks[1].kind == Block::Kind::Code);
    CHECK(prompt.blocks[1].language == "python");
    REQUIRE(screen.question.choices.size() == 3);
    for (const auto& choice : screen.question.choices) CHECK(choice.text_rich);
    CHECK(screen.title.find("**") == std::string::npos);  // the tab's title has the words, not the marks

    nlohmann::json page = nlohmann::json::parse(app::screen_to_page(state, screen));
    CHECK(page["question"]["promptRich"][1]["type"] == "code");
    CHECK(page["question"]["promptRich"][0]["runs"][1]["strong"] == true);

    // A plain bank: the parser is never asked for. The launch banks are Markdown banks (issue 15),
    // so data-parallelism stands in without its "textFormat", beside the other (Markdown) one.
    testing::fresh_world({{"quiz", "data-parallelism"}});
    nlohmann::json plain_bank = nlohmann::json::parse(testing::source("quizzes/data-parallelism.json"));
    REQUIRE(plain_bank.erase("textFormat") == 1);
    memory::world().files["quizzes/data-parallelism.json"] = plain_bank.dump();
    app::AppState plain;
    app::start(plain);
    for (int i = 0; i < 4; ++i) {
        memory::deliver_fetches();
        app::poll(plain);
    }
    REQUIRE(app::build_screen(plain).question.present);
    CHECK(memory::world().markdown_requests == 0);
    CHECK_FALSE(nlohmann::json::parse(app::screen_to_page(plain, app::build_screen(plain)))["question"].contains("promptRich"));
}

TEST_CASE("markdown banks in the app: a parser that cannot be had fails the bank, in words") {
    namespace memory = platform::memory;
    testing::fresh_world({}, false);
    memory::World& world = memory::world();
    world.files["quizzes/index.json"] = R"({"format": "imquiz-catalog", "version": 1, "banks": [
        {"id": "markdown-sampler", "file": "markdown-sampler.json"}]})";
    world.files["quizzes/markdown-sampler.json"] = readme_markdown_bank();
    world.markdown = platform::MarkdownParser::Failed;
    app::AppState state;
    app::start(state);
    for (int i = 0; i < 4; ++i) {
        memory::deliver_fetches();
        app::poll(state);
    }
    app::ScreenModel screen = app::build_screen(state);
    REQUIRE(screen.catalog.cards.size() == 1);
    CHECK(screen.catalog.cards[0].status == app::CardModel::Status::FetchFailed);
    REQUIRE_FALSE(screen.catalog.cards[0].problems.empty());
    CHECK(screen.catalog.cards[0].problems[0].find("imquiz-markdown.wasm") != std::string::npos);
}

TEST_CASE("markdown banks in the app: links open only with http, https or mailto; Copy copies the code") {
    namespace memory = platform::memory;
    testing::fresh_world({});
    app::AppState state;
    auto act = [&](app::Action::Kind kind, const char* text) {
        app::Action action = app::Action::of(kind);
        action.text = text;
        app::apply(state, action);
    };
    act(app::Action::Kind::OpenLink, "https://pytorch.org/docs/stable/notes/ddp.html");
    act(app::Action::Kind::OpenLink, "mailto:author@example.org");
    act(app::Action::Kind::OpenLink, "javascript:alert(1)");
    act(app::Action::Kind::OpenLink, "data:text/html,<script>alert(1)</script>");
    act(app::Action::Kind::OpenLink, " https://leading.space");
    CHECK(memory::world().opened_links ==
          std::vector<std::string>{"https://pytorch.org/docs/stable/notes/ddp.html", "mailto:author@example.org"});
    act(app::Action::Kind::CopyText, "with model.no_sync():\n    loss.backward()");
    CHECK(memory::world().clipboard == "with model.no_sync():\n    loss.backward()");
}
