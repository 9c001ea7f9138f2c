#include "engine/unicode.h"

#include "engine/utf8.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

namespace imquiz {
namespace {

struct Composition {
    char32_t composed;
    char32_t base;
    char32_t mark;
};

struct Folding {
    char32_t code_point;
    char32_t folded[3];   // zero-padded
};

#include "engine/unicode_tables.inc"

std::u32string decode(std::string_view text) {
    std::u32string result;
    result.reserve(text.size());
    for (std::size_t i = 0; i < text.size();)
        result.push_back(decode_utf8(text, i));
    return result;
}

std::string encode(const std::u32string& code_points) {
    std::string out;
    out.reserve(code_points.size());
    for (char32_t c : code_points)
        append_utf8(out, c);
    return out;
}

int combining_class(char32_t c) {
    if (c < 0x0300 || c > 0x036F)
        return 0;
    return mark_classes[c - 0x0300];
}

const Composition* find_decomposition(char32_t c) {
    const auto* end = std::end(compositions);
    const auto* found = std::lower_bound(
        std::begin(compositions), end, c,
        [](const Composition& entry, char32_t value) { return entry.composed < value; });
    return found != end && found->composed == c ? found : nullptr;
}

char32_t find_composition(char32_t base, char32_t mark) {
    const auto* end = std::end(compositions_by_pair);
    const auto* found = std::lower_bound(
        std::begin(compositions_by_pair), end, std::make_pair(base, mark),
        [](std::uint16_t index, const std::pair<char32_t, char32_t>& pair) {
            const Composition& entry = compositions[index];
            return std::make_pair(entry.base, entry.mark) < pair;
        });
    if (found == end)
        return 0;
    const Composition& entry = compositions[*found];
    return entry.base == base && entry.mark == mark ? entry.composed : 0;
}

void append_decomposed(std::u32string& out, char32_t c) {
    // Iterative: the base of a decomposition may decompose again (U+1EC7 -> U+1EB9 + U+0302 ->
    // e + U+0323 + U+0302); marks are collected and appended after the final base.
    char32_t marks[8];
    int mark_count = 0;
    while (const Composition* entry = find_decomposition(c)) {
        if (mark_count == 8)
            break;
        marks[mark_count++] = entry->mark;
        c = entry->base;
    }
    out.push_back(c);
    while (mark_count > 0)
        out.push_back(marks[--mark_count]);
}

std::u32string decompose(const std::u32string& text) {
    std::u32string out;
    out.reserve(text.size() + text.size() / 4);
    for (char32_t c : text)
        append_decomposed(out, c);
    return out;
}

// Canonical ordering: within each run of non-starters, a stable sort by combining class.
// A stable sort of each run of marks by combining class, as counting sort: linear however long
// a hostile run is, and a fraction of std::stable_sort's code in the wasm.
void reorder_marks(std::u32string& text) {
    std::u32string run;
    std::size_t i = 0;
    while (i < text.size()) {
        if (combining_class(text[i]) == 0) {
            ++i;
            continue;
        }
        std::size_t run_end = i;
        while (run_end < text.size() && combining_class(text[run_end]) != 0)
            ++run_end;
        if (run_end - i > 1) {
            std::size_t next[257] = {};  // next[c]: where the next mark of class c goes
            for (std::size_t k = i; k < run_end; ++k)
                ++next[combining_class(text[k]) + 1];
            for (int c = 1; c < 257; ++c)
                next[c] += next[c - 1];
            run.resize(run_end - i);
            for (std::size_t k = i; k < run_end; ++k)
                run[next[combining_class(text[k])]++] = text[k];
            std::copy(run.begin(), run.end(), text.begin() + static_cast<std::ptrdiff_t>(i));
        }
        i = run_end;
    }
}

// The canonical composition algorithm of UAX #15, on decomposed, reordered text.
void compose(std::u32string& text) {
    if (text.empty())
        return;
    std::size_t starter_position = 0;
    char32_t starter = text[0];
    int last_class = combining_class(starter) == 0 ? 0 : 256;
    std::size_t write = 1;
    for (std::size_t read = 1; read < text.size(); ++read) {
        const char32_t c = text[read];
        const int c_class = combining_class(c);
        const char32_t composite = find_composition(starter, c);
        if (composite != 0 && (last_class < c_class || last_class == 0)) {
            text[starter_position] = composite;
            starter = composite;
            continue;
        }
        if (c_class == 0) {
            starter_position = write;
            starter = c;
        }
        last_class = c_class;
        text[write++] = c;
    }
    text.resize(write);
}

std::u32string fold(const std::u32string& decomposed) {
    std::u32string out;
    out.reserve(decomposed.size());
    for (char32_t c : decomposed) {
        const auto* end = std::end(foldings);
        const auto* found = std::lower_bound(
            std::begin(foldings), end, c,
            [](const Folding& entry, char32_t value) { return entry.code_point < value; });
        if (found == end || found->code_point != c) {
            out.push_back(c);
            continue;
        }
        for (char32_t folded : found->folded)
            if (folded != 0)
                out.push_back(folded);
    }
    return out;
}

std::u32string nfc(const std::u32string& text, bool fold_case) {
    std::u32string result = decompose(text);
    if (fold_case)
        result = fold(result);   // folded letters are already decomposed (see the generator)
    reorder_marks(result);
    compose(result);
    return result;
}

bool is_space(char32_t c) {
    return c == ' ' || (c >= 0x09 && c <= 0x0D) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000;
}

} // namespace

bool is_valid_utf8(std::string_view text) {
    return first_invalid_utf8(text) == std::string_view::npos;
}

std::string to_valid_utf8(std::string_view text) {
    return encode(decode(text));
}

std::string to_nfc(std::string_view text) {
    return encode(nfc(decode(text), false));
}

std::string case_fold(std::string_view text) {
    return encode(nfc(decode(text), true));
}

bool has_only_white_space(std::string_view text) {
    // Same answer as normalize_for_matching(text).empty() (composition and case folding never
    // remove a character), without building the normalized text: validation asks this of every
    // text of a bank.
    for (std::size_t i = 0; i < text.size();)
        if (!is_space(decode_utf8(text, i)))
            return false;
    return true;
}

std::string normalize_for_matching(std::string_view text) {
    const std::u32string normalized = nfc(decode(text), true);
    std::u32string collapsed;
    collapsed.reserve(normalized.size());
    bool pending_space = false;
    for (char32_t c : normalized) {
        if (is_space(c)) {
            pending_space = !collapsed.empty();
            continue;
        }
        if (pending_space)
            collapsed.push_back(' ');
        pending_space = false;
        collapsed.push_back(c);
    }
    return encode(collapsed);
}

bool is_invisible_format_character(char32_t c) {
    return c == 0x00AD || c == 0x061C || (c >= 0x200B && c <= 0x200F) ||
           (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x2064) ||
           (c >= 0x2066 && c <= 0x2069) || c == 0xFEFF;
}

namespace {

bool is_control_character(char32_t c) {
    return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F);
}

}  // namespace

std::string neutralize_for_display(std::string_view text) {
    std::string result;
    result.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t start = i;
        const char32_t c = decode_utf8(text, i);
        if (c == '\n' || c == '\t') {
            result += static_cast<char>(c);
        } else if (c == '\r' || is_invisible_format_character(c)) {
            continue;
        } else if (is_control_character(c)) {
            append_utf8(result, replacement_character);
        } else if (c == replacement_character && i - start != 3) {
            append_utf8(result, replacement_character);   // an ill-formed byte
        } else {
            result.append(text.data() + start, i - start);
        }
    }
    return result;
}

std::string escape_for_terminal(std::string_view text) {
    static const char hex[] = "0123456789abcdef";
    std::string result;
    result.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t start = i;
        const char32_t c = decode_utf8(text, i);
        const bool ill_formed = c == replacement_character && i - start != 3;
        if (c == '\n') {
            result += "\\n";
        } else if (c == '\t') {
            result += "\\t";
        } else if (c == '\r') {
            result += "\\r";
        } else if (ill_formed || c < 0x20 || c == 0x7F) {
            const unsigned char byte = static_cast<unsigned char>(text[start]);
            result += "\\x";
            result += hex[byte >> 4];
            result += hex[byte & 0xF];
        } else if (is_control_character(c) || is_invisible_format_character(c)) {
            result += "\\u";
            for (int shift = 12; shift >= 0; shift -= 4)
                result += hex[(c >> shift) & 0xF];
        } else {
            result.append(text.data() + start, i - start);
        }
    }
    return result;
}

} // namespace imquiz
