// Interface strings: every language has every string, printf formats agree across languages,
// and language codes map as the URL / browser / saved setting expect.
#include "ui/strings.h"

#include <catch2/catch.hpp>

#include <string>

using namespace imquiz::ui;

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
