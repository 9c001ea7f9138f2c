// The JSON reader (engine/json/reader.h). It reads well-formed text itself, fast, and hands
// anything else to nlohmann's parser, which words the problem. So the two must agree on every
// text: the same document, the same diagnostics (line and column included), the same stop at an
// array limit. Checked on the bad-bank corpus, the shipped banks, and every small mutation of a
// bank; then what the document itself promises.
#include "engine_test_support.h"

#include "engine/json/reader.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace imquiz;

namespace {

std::string file_text(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << file.rdbuf();
    return buffer.str();
}

// Everything a read gives, as one string: two reads agree when these are equal.
std::string outcome(const JsonReadResult& result) {
    std::string text;
    for (const Diagnostic& diagnostic : result.diagnostics)
        text += format_diagnostic_with_severity(diagnostic) + "\n";
    if (result.array_limit_reached)
        text += "(stopped at the array limit)\n";
    text += result.document ? dump_json(to_json(result.document->root())) : "(no document)";
    return text;
}

LoadLimits tiny_limits() {
    LoadLimits limits;
    limits.max_text_bytes = 8;
    limits.max_values = 60;
    limits.max_nesting_depth = 4;
    limits.max_diagnostics = 5;
    return limits;
}

// Fast reader and nlohmann's parser give the same outcome for `text`, with the default limits,
// and with tiny ones and an array limit (every limit reached by a short text).
void check_both_readers_agree(const std::string& text) {
    INFO("text: " << text);
    CHECK(outcome(read_json(text, "b.json", LoadLimits{})) ==
          outcome(read_json_with_reference_parser(text, "b.json", LoadLimits{})));
    const JsonArrayLimit questions{"questions", 2};
    CHECK(outcome(read_json(text, "b.json", tiny_limits(), &questions)) ==
          outcome(read_json_with_reference_parser(text, "b.json", tiny_limits(), &questions)));
}

// Strings with every escape, UTF-8 of each length, numbers of every shape and size.
const char* const tricky_values = R"({"strings": ["plain", "",
  "caf\u00e9 \"quoted\" back\\slash \/ \b\f\n\r\t", "\ud83d\ude00 and 😀", "Ж ф €",
  "\u0000 inside", "ends with a backslash \\"],
 "numbers": [0, -0, 1, -1, 3.14, -2.5e-3, 1E3, 1e+2, 0.000, 18446744073709551615,
  18446744073709551616, -9223372036854775808, -9223372036854775809, 1e308, 4.9e-324],
 "literals": [true, false, null], "nested": {"a": [{"b": {}}, [], [[]]]}, "": "empty key"})";

} // namespace

TEST_CASE("the fast reader and nlohmann's parser agree on the bad-bank corpus and shipped banks",
          "[json]") {
    const std::filesystem::path source(IMQUIZ_SOURCE_DIR);
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(source / "tests/bad-banks/cases"))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path());
    for (const auto& entry : std::filesystem::directory_iterator(source / "quizzes"))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path());
    REQUIRE(files.size() > 50);
    for (const auto& path : files) {
        INFO(path.filename().string());
        const std::string text = file_text(path);
        const LoadLimits limits;
        CHECK(outcome(read_json(text, "b.json", limits)) ==
              outcome(read_json_with_reference_parser(text, "b.json", limits)));
    }
}

TEST_CASE("the fast reader and nlohmann's parser agree on every small mutation of a bank",
          "[json]") {
    const std::string bank = testing::bank_json(testing::five_questions);
    check_both_readers_agree(bank);
    check_both_readers_agree(tricky_values);
    // Bytes that start, end or break a token, and UTF-8 lead bytes of each kind (valid or not).
    const char interesting[] =
        "\"\\{}[],:0-.eEu+/ tnf\x01\x7F\x80\xBF\xC0\xC3\xE0\xED\xF0\xF4\xF5\xFF";
    const std::string bytes = std::string(interesting, sizeof interesting - 1) + '\0';
    for (const std::string& original : {bank, std::string(tricky_values)}) {
        for (std::size_t i = 0; i < original.size(); ++i) {
            std::string removed = original;
            removed.erase(i, 1);
            check_both_readers_agree(removed);
            for (char byte : bytes) {
                std::string replaced = original;
                replaced[i] = byte;
                check_both_readers_agree(replaced);
            }
        }
        for (std::size_t length = 0; length < original.size(); length += 7)
            check_both_readers_agree(original.substr(0, length));   // cut short
    }
}

TEST_CASE("a JSON document", "[json]") {
    const std::string text = tricky_values;
    const JsonReadResult read = read_json(text, "b.json", LoadLimits{});
    REQUIRE(read.diagnostics.empty());
    REQUIRE(read.document);
    const JsonValue& root = read.document->root();

    SECTION("members keep the author's order; arrays index in constant time") {
        std::vector<std::string> keys;
        for (const JsonValue& member : root.children())
            keys.emplace_back(member.key());
        CHECK(keys == std::vector<std::string>{"strings", "numbers", "literals", "nested", ""});
        const JsonValue& numbers = *find_field(root, "numbers");
        REQUIRE(numbers.size() == 15);
        CHECK(numbers[9].type() == JsonValue::Type::Unsigned);
        CHECK(numbers[10].type() == JsonValue::Type::Float);   // beyond 2^64 - 1
        CHECK(numbers[11].type() == JsonValue::Type::Integer);
        CHECK(as_integer(numbers[1]) == 0);
        CHECK(as_number(numbers[5]) == -2.5e-3);
        CHECK(find_field(*find_field(root, "nested"), "a")->size() == 3);
        CHECK(as_string(*find_field(root, "")) == "empty key");
    }
    SECTION("escapes are decoded; strings without them are the text's own bytes") {
        const JsonValue& strings = *find_field(root, "strings");
        CHECK(as_string(strings[2]) == "caf\xC3\xA9 \"quoted\" back\\slash / \b\f\n\r\t");
        CHECK(as_string(strings[3]) == "\xF0\x9F\x98\x80 and \xF0\x9F\x98\x80");
        CHECK(as_string(strings[5]) == std::string("\0 inside", 8));
        const std::string_view plain = *as_string(strings[0]);
        CHECK(plain.data() >= text.data());
        CHECK(plain.data() < text.data() + text.size());
    }
    SECTION("what was read converts to nlohmann's JSON and back") {
        const JsonDocument again = to_document(to_json(root));
        CHECK(dump_json(to_json(again.root())) == dump_json(to_json(root)));
        CHECK(dump_json(to_json(again.root())) == dump_json(Json::parse(text)));
    }
}

TEST_CASE("an array limit stops reading at the first element over it", "[json]") {
    const JsonArrayLimit limit{"questions", 2};
    SECTION("the rest of the text is not read (a syntax error there goes unreported)") {
        const JsonReadResult read = read_json(R"({"questions": [1, 2, 3, oops)", "b.json",
                                              LoadLimits{}, &limit);
        CHECK(read.array_limit_reached);
        CHECK_FALSE(read.document);
        CHECK(read.diagnostics.empty());
    }
    SECTION("at the limit, or elsewhere than the top-level field, it is not reached") {
        for (const char* text : {R"({"questions": [1, 2]})", R"({"x": {"questions": [1, 2, 3]}})",
                                 R"([{"questions": [1, 2, 3]}])", R"({"x": [1, 2, 3]})"}) {
            const JsonReadResult read = read_json(text, "b.json", LoadLimits{}, &limit);
            CHECK_FALSE(read.array_limit_reached);
            CHECK(read.document);
        }
    }
    SECTION("a repeated key's value does not count (it is dropped)") {
        const JsonReadResult read = read_json(R"({"questions": [1], "questions": [1, 2, 3]})",
                                              "b.json", LoadLimits{}, &limit);
        CHECK_FALSE(read.array_limit_reached);
        CHECK(testing::formatted(read.diagnostics) ==
              std::vector<std::string>{"b.json: error: duplicate field \"questions\""});
    }
}
