// UTF-8 checks, NFC, case folding and the normalization short-text answers are compared on.
#include "engine/unicode.h"

#include <catch2/catch.hpp>

using imquiz::case_fold;
using imquiz::normalize_for_matching;
using imquiz::to_nfc;

TEST_CASE("UTF-8 validity", "[unicode]") {
    CHECK(imquiz::is_valid_utf8("plain ascii"));
    CHECK(imquiz::is_valid_utf8("Ёж, \xEF\xBF\xBD, \xF0\x9F\x98\x80"));   // U+FFFD itself is fine
    CHECK_FALSE(imquiz::is_valid_utf8("\xFF"));
    CHECK_FALSE(imquiz::is_valid_utf8("\xC0\xAF"));           // overlong "/"
    CHECK_FALSE(imquiz::is_valid_utf8("\xED\xA0\x80"));       // surrogate
    CHECK_FALSE(imquiz::is_valid_utf8("\xE2\x82"));           // truncated
    CHECK_FALSE(imquiz::is_valid_utf8("\xF4\x90\x80\x80"));   // beyond U+10FFFF
    CHECK(imquiz::to_valid_utf8("a\xFF" "b") == "a\xEF\xBF\xBD" "b");
}

TEST_CASE("NFC composition", "[unicode]") {
    SECTION("Latin-1 and Latin Extended-A") {
        CHECK(to_nfc("e\xCC\x81") == "\xC3\xA9");                 // e + U+0301 -> é
        CHECK(to_nfc("A\xCC\x8A") == "\xC3\x85");                 // Å
        CHECK(to_nfc("c\xCC\x8C") == "\xC4\x8D");                 // č
        CHECK(to_nfc("s\xCC\xA6") == "\xC8\x99");                 // ș (Latin Extended-B)
    }
    SECTION("Cyrillic: й and ё typed as base + combining mark") {
        CHECK(to_nfc("\xD0\xB8\xCC\x86") == "й");
        CHECK(to_nfc("\xD0\xB5\xCC\x88") == "ё");
        CHECK(to_nfc("\xD0\x98\xCC\x86") == "Й");
    }
    SECTION("two marks: canonical order, then composition (Vietnamese ệ)") {
        CHECK(to_nfc("e\xCC\x82\xCC\xA3") == "ệ");   // circumflex then dot below
        CHECK(to_nfc("e\xCC\xA3\xCC\x82") == "ệ");   // dot below then circumflex
    }
    SECTION("already composed text and other scripts are unchanged") {
        CHECK(to_nfc("Ёжик в тумане") == "Ёжик в тумане");
        CHECK(to_nfc("日本語 \xF0\x9F\x98\x80") == "日本語 \xF0\x9F\x98\x80");
    }
}

TEST_CASE("case folding", "[unicode]") {
    CHECK(case_fold("HeLLo") == "hello");
    CHECK(case_fold("ÀÉÎÕÜ") == "àéîõü");
    CHECK(case_fold("Straße") == "strasse");
    CHECK(case_fold("ĀČĘĞŁŃŒŠŽ") == "āčęğłńœšž");
    CHECK(case_fold("ЁЖИК Й") == "ёжик й");
    CHECK(case_fold("ΣΟΦΊΑ") == "σοφία");
}

TEST_CASE("normalize_for_matching", "[unicode]") {
    SECTION("case, NFC and whitespace all at once") {
        CHECK(normalize_for_matching("  All-Reduce  ") == "all-reduce");
        CHECK(normalize_for_matching("all \t\n reduce") == "all reduce");
        CHECK(normalize_for_matching("all\xC2\xA0reduce") == "all reduce");   // no-break space
        CHECK(normalize_for_matching("\xD0\x98\xCC\x86\xD0\x9E\xD0\x93\xD0\xA3\xD0\xA0\xD0\xA2") ==
              "йогурт");
        CHECK(normalize_for_matching("Ё") == normalize_for_matching("е\xCC\x88"));
    }
    SECTION("whitespace only becomes empty") {
        CHECK(normalize_for_matching(" \t\xE3\x80\x80 ").empty());
    }
    SECTION("invalid bytes become U+FFFD") {
        CHECK(normalize_for_matching("A\xFF") == "a\xEF\xBF\xBD");
    }
}

TEST_CASE("Display: bidi controls and invisible characters neutralized (issue 24, audit F12)",
          "[unicode][display]") {
    using imquiz::neutralize_for_display;
    SECTION("regression: U+202E reversed the mirror and the title; now it is gone") {
        CHECK(neutralize_for_display("\xE2\x80\xAE" "txet desrever") == "txet desrever");
    }
    SECTION("every bidi embedding, override, isolate and mark is removed") {
        for (const char* control : {"\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066",
                                    "\u2067", "\u2068", "\u2069", "\u200E", "\u200F", "\u061C"})
            CHECK(neutralize_for_display(std::string("a") + control + "b") == "ab");
    }
    SECTION("zero-width characters and the soft hyphen are removed") {
        for (const char* invisible : {"\u200B", "\u200C", "\u200D", "\u2060", "\u2061", "\u2062",
                                      "\u2063", "\u2064", "\uFEFF", "\u00AD"})
            CHECK(neutralize_for_display(std::string("Par") + invisible + "is") == "Paris");
        // A choice of zero-width characters only is empty on every rendering, not on some.
        CHECK(neutralize_for_display("\u200B\u200C\u200D\u2060").empty());
    }
    SECTION("control characters become a visible U+FFFD; tab and line feed stay") {
        CHECK(neutralize_for_display("red \x1b[31m!") == "red \xEF\xBF\xBD[31m!");
        CHECK(neutralize_for_display("bell\x07 del\x7F c1\xC2\x85") ==
              "bell\xEF\xBF\xBD del\xEF\xBF\xBD c1\xEF\xBF\xBD");
        CHECK(neutralize_for_display("line 1\r\nline 2\tend") == "line 1\nline 2\tend");
    }
    SECTION("ill-formed UTF-8 becomes U+FFFD; the rest is kept as it is") {
        CHECK(neutralize_for_display("a\xFF" "b") == "a\xEF\xBF\xBD" "b");
        const std::string text = "Ёж, naïve, 中文, \xF0\x9F\x98\x80, \xEF\xBF\xBD, א ב";
        CHECK(neutralize_for_display(text) == text);
    }
    SECTION("idempotent") {
        const std::string once = neutralize_for_display("\u202Ea\x1b\u200Bb\xFF\r");
        CHECK(neutralize_for_display(once) == once);
    }
}

TEST_CASE("Terminal: control, bidi and zero-width characters escaped (issue 24, audit F8)",
          "[unicode][terminal]") {
    using imquiz::escape_for_terminal;
    CHECK(escape_for_terminal("\x1b]0;PWNED\x07\x1b[2K") == "\\x1b]0;PWNED\\x07\\x1b[2K");
    CHECK(escape_for_terminal("a\u202Eb\u200Bc\uFEFF") == "a\\u202eb\\u200bc\\ufeff");
    CHECK(escape_for_terminal("c1 \xC2\x9B" "31m") == "c1 \\u009b31m");
    CHECK(escape_for_terminal("tab\tline\nreturn\r del\x7F") == "tab\\tline\\nreturn\\r del\\x7f");
    CHECK(escape_for_terminal("bad \xFF\xC0") == "bad \\xff\\xc0");
    CHECK(escape_for_terminal("Ёж \\} 100%") == "Ёж \\} 100%");   // text and backslashes as they are
}
