// The font atlas's glyph set (ui/glyph_set.h): what it starts with, what it takes from a screen's
// words, what it refuses, and the ranges ImGui is given.
#include "ui/glyph_set.h"

#include "engine/utf8.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

using namespace imquiz::ui;

TEST_CASE("glyph set: starts with ASCII and what the views draw, grows with what screens show") {
    GlyphSet glyphs;
    const std::size_t start = glyphs.size();
    CHECK(start == 95 + 5);
    CHECK(glyphs.contains(U'a'));
    CHECK(glyphs.contains(U'~'));
    CHECK(glyphs.contains(U'\u2026'));  // ImGui's ellipsis for clipped text
    CHECK(glyphs.contains(U'\u2039'));  // the back button's ‹
    CHECK_FALSE(glyphs.contains(U'\u0416'));
    CHECK_FALSE(glyphs.contains(U'\u00E9'));

    SECTION("only new characters grow it, once each") {
        CHECK_FALSE(glyphs.add("Plain ASCII, nothing new: {\"a\":1}"));
        CHECK(glyphs.add("Жук и ёж, café"));
        CHECK(glyphs.contains(U'Ж'));
        CHECK(glyphs.contains(U'ё'));
        CHECK(glyphs.contains(U'é'));
        CHECK(glyphs.size() == start + 7);  // Ж у к и ё ж é
        CHECK_FALSE(glyphs.add("жук ёж"));
    }
    SECTION("what the font lacks is never asked of it, and bad UTF-8 is no character") {
        CHECK_FALSE(glyphs.add("→ − ∑ 漢字 😀"));  // arrows, the minus sign, CJK, emoji: not in the subset
        CHECK_FALSE(glyphs.add(std::string("\xC3\x28 \xE2\x82 \xFF \xED\xA0\x80", 12)));  // malformed, truncated, surrogate
        CHECK(glyphs.size() == start);
    }
    SECTION("the ranges are inclusive pairs in order, consecutive characters merged, then 0") {
        glyphs.add("абвд");
        const auto& ranges = glyphs.ranges();
        REQUIRE(ranges.size() % 2 == 1);
        CHECK(ranges.back() == 0);
        CHECK(ranges[0] == 0x20);
        CHECK(ranges[1] == 0x7E);
        std::size_t listed = 0;
        for (std::size_t i = 0; i + 1 < ranges.size(); i += 2) {
            CHECK(ranges[i] <= ranges[i + 1]);
            if (i + 2 < ranges.size() - 1) CHECK(ranges[i + 1] + 1 < ranges[i + 2]);  // merged, in order
            listed += ranges[i + 1] - ranges[i] + 1u;
        }
        CHECK(listed == glyphs.size());
        // а б в are one range, д (after г, absent) another.
        bool abv = false, d = false;
        for (std::size_t i = 0; i + 1 < ranges.size(); i += 2) {
            abv = abv || (ranges[i] == 0x0430 && ranges[i + 1] == 0x0432);
            d = d || (ranges[i] == 0x0434 && ranges[i + 1] == 0x0434);
        }
        CHECK(abv);
        CHECK(d);
    }
}

TEST_CASE("glyph set: the font's coverage is the subset script's") {
    // scripts/subset-font.sh's --unicodes list, read from the script: the two must agree, or a
    // character would be drawn as "?" although the font has it (or asked of a font without it).
    std::ifstream script(IMQUIZ_SOURCE_DIR "/scripts/subset-font.sh");
    std::stringstream text;
    text << script.rdbuf();
    std::smatch list;
    const std::string source = text.str();
    REQUIRE(std::regex_search(source, list, std::regex("--unicodes=\"([^\"]+)\"")));
    std::string ranges = list[1];
    std::regex one("U\\+([0-9A-Fa-f]{4})(?:-([0-9A-Fa-f]{4}))?");
    std::size_t covered = 0;
    for (std::sregex_iterator it(ranges.begin(), ranges.end(), one), end; it != end; ++it) {
        char32_t first = std::stoul((*it)[1], nullptr, 16);
        char32_t last = (*it)[2].matched ? std::stoul((*it)[2], nullptr, 16) : first;
        for (char32_t c = first; c <= last; ++c) {
            INFO(std::hex << static_cast<unsigned>(c));
            CHECK(GlyphSet::font_has(c));
        }
        covered += last - first + 1;
    }
    std::size_t has = 0;
    for (char32_t c = 0; c < 0x3000; ++c) has += GlyphSet::font_has(c);
    CHECK(has == covered);
}

TEST_CASE("glyph set: every character our views draw themselves is in it from the start") {
    // The atlas learns a screen's characters from its words (the page's JSON of the screen model);
    // what a view adds itself ("‹ " before Back, " · " between parts) is in no screen's words, so
    // it must be in the starting set, or it would be drawn as "?".
    GlyphSet glyphs;
    int literals = 0;
    for (const char* folder : {"/src/ui", "/src/program"}) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(IMQUIZ_SOURCE_DIR) + folder)) {
            if (entry.path().extension() != ".cpp" && entry.path().extension() != ".h") continue;
            std::ifstream file(entry.path());
            std::string line;
            while (std::getline(file, line)) {
                const std::size_t comment = line.find("//");
                const std::string code = line.substr(0, comment);
                for (std::size_t i = 0; i < code.size();) {
                    if (static_cast<unsigned char>(code[i]) < 0x80) {
                        ++i;
                        continue;
                    }
                    const std::size_t at = i;
                    char32_t c = imquiz::decode_utf8(code, i);
                    ++literals;
                    INFO(entry.path().string() << ": " << code.substr(at, i - at));
                    CHECK(glyphs.contains(c));
                }
            }
        }
    }
    CHECK(literals >= 4);  // "‹" twice, "·" and "•": the scan sees them
}
