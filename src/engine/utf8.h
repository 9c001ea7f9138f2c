// The engine's one UTF-8 codec. Well-formed means Unicode's table 3-7 (RFC 3629): no overlong
// forms, no surrogates, nothing above U+10FFFF, which is also what nlohmann's lexer accepts.
// Inline: the JSON reader walks every string of a bank through it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace imquiz {

constexpr char32_t replacement_character = 0xFFFD;

inline bool is_utf8_continuation_byte(unsigned char c) { return (c & 0xC0) == 0x80; }

// The length (1 to 4) of the well-formed sequence that starts at `at`; 0 when the bytes there
// are not one (a stray continuation byte, an overlong form, a truncated sequence...).
inline std::size_t utf8_sequence_length(const char* at, const char* end) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(at[i]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80)
        return 1;
    std::size_t length = 0;
    unsigned char low = 0x80;    // the range of the second byte
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0)
            low = 0xA0;    // below: overlong
        if (lead == 0xED)
            high = 0x9F;   // above: surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0)
            low = 0x90;    // below: overlong
        if (lead == 0xF4)
            high = 0x8F;   // above: beyond U+10FFFF
    } else {
        return 0;
    }
    if (static_cast<std::size_t>(end - at) < length || byte(1) < low || byte(1) > high)
        return 0;
    for (std::size_t i = 2; i < length; ++i)
        if (!is_utf8_continuation_byte(byte(i)))
            return 0;
    return length;
}

// The code point at `text[i]`, advancing `i` past it; a byte that does not start a well-formed
// sequence gives U+FFFD and advances one byte (so the next sequence is still read).
inline char32_t decode_utf8(std::string_view text, std::size_t& i) {
    const char* at = text.data() + i;
    const std::size_t length = utf8_sequence_length(at, text.data() + text.size());
    if (length == 0) {
        ++i;
        return replacement_character;
    }
    i += length;
    const unsigned char lead = static_cast<unsigned char>(at[0]);
    if (length == 1)
        return lead;
    char32_t code_point = lead & (0xFF >> (length + 1));
    for (std::size_t k = 1; k < length; ++k)
        code_point = (code_point << 6) | (static_cast<unsigned char>(at[k]) & 0x3F);
    return code_point;
}

inline void append_utf8(std::string& out, char32_t code_point) {
    if (code_point < 0x80) {
        out += static_cast<char>(code_point);
    } else if (code_point < 0x800) {
        out += static_cast<char>(0xC0 | (code_point >> 6));
        out += static_cast<char>(0x80 | (code_point & 0x3F));
    } else if (code_point < 0x10000) {
        out += static_cast<char>(0xE0 | (code_point >> 12));
        out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code_point & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (code_point >> 18));
        out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code_point & 0x3F));
    }
}

// The offset of the first byte that is not part of well-formed UTF-8; npos when there is none.
inline std::size_t first_invalid_utf8(std::string_view text) {
    const char* const end = text.data() + text.size();
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = utf8_sequence_length(text.data() + i, end);
        if (length == 0)
            return i;
        i += length;
    }
    return std::string_view::npos;
}

} // namespace imquiz
