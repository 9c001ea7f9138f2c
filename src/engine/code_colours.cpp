#include "engine/code_colours.h"

#include "engine/utf8.h"

#include <cstdint>

namespace imquiz {

namespace {

struct LanguageName {
    std::string_view fence;
    std::string_view highlighter;  // a grammar of src/platform/web/code_highlighter.js
};
// What authors write after ``` for the languages the highlighter has (quizzes/README.md).
constexpr LanguageName language_names[] = {
    {"python", "python"}, {"py", "python"},  {"python3", "python"}, {"cpp", "cpp"},   {"c++", "cpp"},
    {"cxx", "cpp"},       {"cc", "cpp"},     {"hpp", "cpp"},         {"c", "c"},       {"h", "c"},
    {"bash", "bash"},     {"sh", "bash"},    {"shell", "bash"},      {"zsh", "bash"},  {"console", "bash"},
    {"json", "json"},     {"yaml", "yaml"},  {"yml", "yaml"},
};

bool same_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
        if (x != b[i]) return false;
    }
    return true;
}

// The next number of the answer, advancing `at` past it and the comma after it. Numbers above
// 2^32 - 1 fail (no span of a code block is that long; it would wrap).
bool next_number(std::string_view answer, std::size_t& at, std::uint32_t& value) {
    std::uint64_t number = 0;
    std::size_t start = at;
    while (at < answer.size() && answer[at] >= '0' && answer[at] <= '9') {
        number = number * 10 + static_cast<std::uint64_t>(answer[at] - '0');
        if (number > UINT32_MAX) return false;
        ++at;
    }
    if (at == start || at - start > 10) return false;
    if (at < answer.size()) {
        if (answer[at] != ',' || at + 1 == answer.size()) return false;
        ++at;
    }
    value = static_cast<std::uint32_t>(number);
    return true;
}

bool on_boundary(std::string_view code, std::size_t at) {
    return at == code.size() || !is_utf8_continuation_byte(static_cast<unsigned char>(code[at]));
}

}  // namespace

std::string_view coloured_language(std::string_view fence_language) {
    for (const auto& name : language_names)
        if (same_ignoring_case(fence_language, name.fence)) return name.highlighter;
    return {};
}

std::vector<CodeSpan> read_code_spans(std::string_view code, std::string_view answer) {
    std::vector<CodeSpan> spans;
    std::size_t at = 0;
    std::uint64_t covered = 0;  // the end of the last span
    while (at < answer.size()) {
        std::uint32_t begin = 0, length = 0, kind = 0;
        if (!next_number(answer, at, begin) || !next_number(answer, at, length) || !next_number(answer, at, kind))
            return {};
        std::uint64_t end = std::uint64_t{begin} + length;
        if (length == 0 || begin < covered || end > code.size() || kind >= static_cast<std::uint32_t>(CodeKind::Count) ||
            !on_boundary(code, begin) || !on_boundary(code, end))
            return {};
        spans.push_back({begin, length, static_cast<CodeKind>(kind)});
        covered = end;
    }
    return spans;
}

}  // namespace imquiz
