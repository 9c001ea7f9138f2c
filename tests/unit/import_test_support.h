// Shared by the authoring tests (test_import_*.cpp, test_export_gift.cpp): the sample files in
// tests/data/import, and a field-by-field bank comparison that prints what differs.
#pragma once

#include "engine/bank.h"
#include "engine/diagnostics.h"
#include "engine/import/import.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace imquiz::testing {

// The whole file, or "" when it cannot be read (the test then fails on what it expected).
inline std::string read_text_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream contents;
    contents << file.rdbuf();
    return contents.str();
}

inline std::string import_sample(const std::string& name) {
    const std::string text = read_text_file(std::string(IMQUIZ_SOURCE_DIR) +
                                            "/tests/data/import/" + name);
    INFO("sample file tests/data/import/" << name);
    REQUIRE_FALSE(text.empty());
    return text;
}

// The contents of every fenced block of `markdown` whose info string is `language`
// (```gift ... ```), so the documentation's examples are run by the tests.
inline std::vector<std::string> markdown_blocks(const std::string& markdown,
                                                const std::string& language) {
    std::vector<std::string> blocks;
    std::istringstream lines(markdown);
    std::string line;
    std::string block;
    bool inside = false;
    while (std::getline(lines, line)) {
        if (!inside && line == "```" + language) {
            inside = true;
            block.clear();
        } else if (inside && line == "```") {
            inside = false;
            blocks.push_back(block);
        } else if (inside) {
            block += line + "\n";
        }
    }
    return blocks;
}

inline std::vector<std::string> diagnostic_lines(const std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> lines;
    for (const Diagnostic& diagnostic : diagnostics)
        lines.push_back(format_diagnostic_with_severity(diagnostic));
    return lines;
}

// "plain:text" or "en=...|ru=...": readable in a failed CHECK.
inline std::string describe(const LocalizedText& text) {
    if (text.is_plain())
        return "plain:" + text.plain();
    std::string result;
    for (const auto& [language, translation] : text.translations())
        result += (result.empty() ? "" : "|") + language + "=" + translation;
    return result;
}

// The text of a single-language text (the importers write one language).
inline std::string only_text(const LocalizedText& text) {
    if (text.is_plain())
        return text.plain();
    return text.translations().size() == 1 ? text.translations().begin()->second : describe(text);
}

inline void check_same_question(const Question& a, const Question& b) {
    INFO("question " << a.id);
    CHECK(a.id == b.id);
    CHECK(to_string(a.type) == to_string(b.type));
    CHECK(describe(a.prompt) == describe(b.prompt));
    CHECK(describe(a.explanation) == describe(b.explanation));
    CHECK(a.tags == b.tags);
    REQUIRE(a.choices.size() == b.choices.size());
    for (std::size_t i = 0; i < a.choices.size(); ++i) {
        INFO("choice " << i);
        CHECK(a.choices[i].id == b.choices[i].id);
        CHECK(describe(a.choices[i].text) == describe(b.choices[i].text));
        CHECK(a.choices[i].correct == b.choices[i].correct);
        CHECK(describe(a.choices[i].feedback) == describe(b.choices[i].feedback));
    }
    CHECK(a.true_false_answer == b.true_false_answer);
    CHECK(a.numeric_answer.form == b.numeric_answer.form);
    CHECK(a.numeric_answer.value == b.numeric_answer.value);
    CHECK(a.numeric_answer.tolerance == b.numeric_answer.tolerance);
    CHECK(a.numeric_answer.min == b.numeric_answer.min);
    CHECK(a.numeric_answer.max == b.numeric_answer.max);
    CHECK(describe(a.unit) == describe(b.unit));
    REQUIRE(a.accepted_texts.size() == b.accepted_texts.size());
    for (std::size_t i = 0; i < a.accepted_texts.size(); ++i)
        CHECK(describe(a.accepted_texts[i]) == describe(b.accepted_texts[i]));
}

// Every field of the two banks, and their fingerprints.
inline void check_same_bank(const Bank& a, const Bank& b) {
    CHECK(bank_fingerprint(a) == bank_fingerprint(b));
    CHECK(a.id == b.id);
    CHECK(describe(a.title) == describe(b.title));
    CHECK(describe(a.description) == describe(b.description));
    CHECK(a.languages == b.languages);
    CHECK(a.default_language == b.default_language);
    CHECK(a.notes == b.notes);
    CHECK(a.settings.shuffle_choices == b.settings.shuffle_choices);
    CHECK(a.settings.shuffle_questions == b.settings.shuffle_questions);
    CHECK(a.settings.pool_size == b.settings.pool_size);
    CHECK(a.settings.pass_percent == b.settings.pass_percent);
    CHECK(a.settings.partial_credit == b.settings.partial_credit);
    REQUIRE(a.questions.size() == b.questions.size());
    for (std::size_t i = 0; i < a.questions.size(); ++i)
        check_same_question(a.questions[i], b.questions[i]);
}

// The texts of a question's right choices, in order.
inline std::vector<std::string> correct_texts(const Question& question) {
    std::vector<std::string> texts;
    for (const Choice& choice : question.choices)
        if (choice.correct)
            texts.push_back(only_text(choice.text));
    return texts;
}

} // namespace imquiz::testing
