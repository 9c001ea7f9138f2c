// LocalizedText lookup and fallback; language codes.
#include "engine/text.h"

#include <catch2/catch.hpp>

using imquiz::LocalizedText;

TEST_CASE("language codes", "[text]") {
    SECTION("accepted") {
        for (const char* code : {"en", "ru", "id", "fil", "pt-BR", "es-419", "zh-TW"})
            CHECK(imquiz::is_valid_language_code(code));
    }
    SECTION("rejected") {
        for (const char* code : {"", "e", "EN", "engl", "en-", "en-br", "en-US-x", "en_US", "pt-B",
                                 "es-41", "-en", "e1", "en-1234"})
            CHECK_FALSE(imquiz::is_valid_language_code(code));
    }
}

TEST_CASE("LocalizedText", "[text]") {
    SECTION("a plain text is the same in every language") {
        const LocalizedText text = LocalizedText::same_in_all_languages("Paris");
        CHECK(text.is_plain());
        CHECK(text.get("ru", "en") == "Paris");
        CHECK(text.get("xx", "yy") == "Paris");
        CHECK(text.has_language("id"));
        CHECK_FALSE(text.empty());
    }
    SECTION("lookup falls back: requested, then default, then any present") {
        LocalizedText text;
        text.set("ru", "Привет");
        text.set("id", "Halo");
        SECTION("requested language present") { CHECK(text.get("ru", "en") == "Привет"); }
        SECTION("requested missing, default present") { CHECK(text.get("en", "id") == "Halo"); }
        SECTION("both missing: the alphabetically first, so the choice is stable") {
            CHECK(text.get("en", "de") == "Halo");
        }
        CHECK(text.has_language("ru"));
        CHECK_FALSE(text.has_language("en"));
    }
    SECTION("an empty text gives an empty string") {
        const LocalizedText text;
        CHECK(text.empty());
        CHECK(text.get("en", "en").empty());
    }
    SECTION("set() turns a plain text into a translated one") {
        LocalizedText text = LocalizedText::same_in_all_languages("x");
        text.set("en", "y");
        CHECK_FALSE(text.is_plain());
        CHECK(text.get("ru", "ru") == "y");
    }
    SECTION("equality compares form and content") {
        LocalizedText a;
        a.set("en", "x");
        LocalizedText b;
        b.set("en", "x");
        CHECK(a == b);
        b.set("ru", "x");
        CHECK(a != b);
        CHECK(LocalizedText::same_in_all_languages("x") != a);
    }
}
