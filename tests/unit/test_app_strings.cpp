// Interface strings: every language has every string, printf formats agree across languages,
// and language codes map as the URL / browser / saved setting expect.
#include "app/strings.h"

#include <catch2/catch.hpp>

#include <string>

using namespace imquiz::app;

namespace {
// The printf conversions of a format string, in order ("%d%s" -> "ds"); "%%" is not one.
std::string conversions(const char* text) {
    std::string out;
    for (const char* p = text; *p; ++p) {
        if (*p != '%') continue;
        ++p;
        if (*p == '%') continue;
        if (*p) out += *p;
    }
    return out;
}

// What the shipped font draws (scripts/subset-font.sh, src/ui/theme.cpp); anything else shows as
// "?". Returns the first code point of `text` outside it, 0 when every one is drawn.
char32_t first_undrawable(const std::string& text) {
    const char32_t drawn[][2] = {{0x20, 0x7E},     {0xA0, 0x17F},   {0x400, 0x45F},   {0x490, 0x491},
                                 {0x2010, 0x2027}, {0x2030, 0x203A}, {0x20AC, 0x20AC}, {0x2116, 0x2116},
                                 {0x2122, 0x2122}, {'\n', '\n'}};
    for (std::size_t i = 0; i < text.size();) {
        auto lead = static_cast<unsigned char>(text[i]);
        int length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        char32_t code = length == 1 ? lead : lead & (0xFF >> (length + 1));
        for (int k = 1; k < length && i + k < text.size(); ++k) code = (code << 6) | (text[i + k] & 0x3F);
        i += static_cast<std::size_t>(length);
        bool ok = false;
        for (const auto& range : drawn) ok = ok || (code >= range[0] && code <= range[1]);
        if (!ok) return code;
    }
    return 0;
}

}  // namespace

TEST_CASE("ui strings") {
    SECTION("every language has every string, and none falls back to English by accident") {
        for (int l = 0; l < static_cast<int>(Language::Count); ++l) {
            for (int s = 0; s < static_cast<int>(Str::Count); ++s) {
                const char* text = tr(static_cast<Language>(l), static_cast<Str>(s));
                INFO("language " << language_code(static_cast<Language>(l)) << ", string " << s);
                REQUIRE(std::string(text) != "?");
                REQUIRE(!std::string(text).empty());
            }
        }
    }
    SECTION("translations keep the printf conversions of the English text") {
        for (int s = 0; s < static_cast<int>(Str::Count); ++s) {
            std::string english = conversions(tr(Language::English, static_cast<Str>(s)));
            for (Language l : {Language::Russian, Language::Indonesian}) {
                INFO("string " << s << " in " << language_code(l));
                REQUIRE(conversions(tr(l, static_cast<Str>(s))) == english);
            }
        }
    }
    SECTION("every character is one the shipped font draws") {
        for (int l = 0; l < static_cast<int>(Language::Count); ++l) {
            for (int s = 0; s < static_cast<int>(Str::Count); ++s) {
                const char* text = tr(static_cast<Language>(l), static_cast<Str>(s));
                INFO("language " << language_code(static_cast<Language>(l)) << ": " << text);
                REQUIRE(first_undrawable(text) == 0);
            }
        }
    }
    SECTION("Russian and Indonesian are really translated") {
        REQUIRE(std::string(tr(Language::Russian, Str::Check)) == "Проверить");
        REQUIRE(std::string(tr(Language::Indonesian, Str::Check)) == "Periksa");
        REQUIRE(std::string(tr(Language::English, Str::Check)) == "Check");
    }
}

TEST_CASE("ui language codes") {
    Language language = Language::English;
    SECTION("primary subtag decides, case and region ignored") {
        REQUIRE(language_from_code("ru-RU", language));
        REQUIRE(language == Language::Russian);
        REQUIRE(language_from_code("ID", language));
        REQUIRE(language == Language::Indonesian);
        REQUIRE(language_from_code("en_GB", language));
        REQUIRE(language == Language::English);
    }
    SECTION("the legacy Indonesian code 'in' is understood") {
        REQUIRE(language_from_code("in-ID", language));
        REQUIRE(language == Language::Indonesian);
    }
    SECTION("unknown languages are refused, leaving the caller's default") {
        language = Language::Russian;
        REQUIRE_FALSE(language_from_code("de-DE", language));
        REQUIRE_FALSE(language_from_code("", language));
        REQUIRE(language == Language::Russian);
    }
    SECTION("codes round trip") {
        for (int l = 0; l < static_cast<int>(Language::Count); ++l) {
            Language back = Language::English;
            REQUIRE(language_from_code(language_code(static_cast<Language>(l)), back));
            REQUIRE(back == static_cast<Language>(l));
        }
    }
}
