#include "engine/json/document_builder.h"

#include "engine/utf8.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace imquiz {
namespace {

// Reads well-formed JSON into a builder, fast: strings without escapes are not copied, and the
// loops are plain pointer walks. (nlohmann's lexer, compiled for size as the web build is, took
// 200 ms for a 6 MB bank in wasm, a third of the whole load.) It accepts exactly what nlohmann's
// parser accepts and reads it to the same values, or gives up: on anything malformed, read_json
// has nlohmann's parser read the text again, to word the problem as before.
class FastReader {
public:
    using Outcome = FastReadOutcome;

    FastReader(std::string_view text, JsonDocumentBuilder& builder)
        : at_(text.data()), end_(text.data() + text.size()), builder_(builder) {}

    Outcome read() {
        // nlohmann skips one UTF-8 byte order mark.
        if (end_ - at_ >= 3 && std::memcmp(at_, "\xEF\xBB\xBF", 3) == 0)
            at_ += 3;
        std::string open;   // 'a' and 'o': the arrays and objects around the reader
        for (;;) {
            // A value.
            skip_white_space();
            if (at_ == end_)
                return Outcome::GaveUp;
            const char c = *at_;
            bool value_done = true;
            if (c == '{' || c == '[') {
                ++at_;
                const bool object = c == '{';
                if (!(object ? builder_.start_object() : builder_.start_array()))
                    return Outcome::Stopped;
                skip_white_space();
                if (at_ != end_ && *at_ == (object ? '}' : ']')) {
                    ++at_;
                    if (!(object ? builder_.end_object() : builder_.end_array()))
                        return Outcome::Stopped;
                } else {
                    open += object ? 'o' : 'a';
                    if (object && !read_key())
                        return outcome_;
                    value_done = false;
                }
            } else if (!read_scalar()) {
                return outcome_;
            }
            if (!value_done)
                continue;
            // After a value: close what ends here, then the next value, or the end of the text.
            for (;;) {
                skip_white_space();
                if (open.empty())
                    return at_ == end_ ? Outcome::Done : Outcome::GaveUp;
                if (at_ == end_)
                    return Outcome::GaveUp;
                const char next = *at_++;
                const bool in_object = open.back() == 'o';
                if (next == ',') {
                    if (in_object && !read_key())
                        return outcome_;
                    break;
                }
                if (next != (in_object ? '}' : ']'))
                    return Outcome::GaveUp;
                open.pop_back();
                if (!(in_object ? builder_.end_object() : builder_.end_array()))
                    return Outcome::Stopped;
            }
        }
    }

private:
    bool give_up() {
        outcome_ = Outcome::GaveUp;
        return false;
    }
    bool stop_if(bool builder_goes_on) {
        if (!builder_goes_on)
            outcome_ = Outcome::Stopped;
        return builder_goes_on;
    }

    void skip_white_space() {
        const char* at = at_;   // a local: through a member, every step would be a store
        while (at != end_ && (*at == ' ' || *at == '\n' || *at == '\r' || *at == '\t'))
            ++at;
        at_ = at;
    }

    // `"name"` then `:`, in an object.
    bool read_key() {
        skip_white_space();
        if (at_ == end_ || *at_ != '"')
            return give_up();
        std::string_view name;
        bool in_text = false;
        if (!read_string(name, in_text) || !stop_if(builder_.key(name, in_text)))
            return false;
        skip_white_space();
        if (at_ == end_ || *at_ != ':')
            return give_up();
        ++at_;
        return true;
    }

    bool read_scalar() {
        const char c = *at_;
        if (c == '"') {
            std::string_view text;
            bool in_text = false;
            return read_string(text, in_text) && stop_if(builder_.string(text, in_text));
        }
        if (c == 't')
            return literal("true") && stop_if(builder_.boolean(true));
        if (c == 'f')
            return literal("false") && stop_if(builder_.boolean(false));
        if (c == 'n')
            return literal("null") && stop_if(builder_.null());
        if (c == '-' || (c >= '0' && c <= '9'))
            return read_number();
        return give_up();
    }

    bool literal(std::string_view word) {
        if (static_cast<std::size_t>(end_ - at_) < word.size() ||
            std::memcmp(at_, word.data(), word.size()) != 0)
            return give_up();
        at_ += word.size();
        return true;
    }

    static bool is_digit(char c) { return c >= '0' && c <= '9'; }

    // JSON's number grammar, then the conversions nlohmann's lexer makes: a whole number without
    // a sign is unsigned, with one signed, and a float when it does not fit (or has a fraction or
    // an exponent).
    bool read_number() {
        const char* start = at_;
        const bool negative = *at_ == '-';
        if (negative)
            ++at_;
        if (at_ == end_ || !is_digit(*at_))
            return give_up();
        if (*at_ == '0')
            ++at_;
        else
            while (at_ != end_ && is_digit(*at_))
                ++at_;
        bool whole = true;
        if (at_ != end_ && *at_ == '.') {
            whole = false;
            ++at_;
            if (at_ == end_ || !is_digit(*at_))
                return give_up();
            while (at_ != end_ && is_digit(*at_))
                ++at_;
        }
        if (at_ != end_ && (*at_ == 'e' || *at_ == 'E')) {
            whole = false;
            ++at_;
            if (at_ != end_ && (*at_ == '+' || *at_ == '-'))
                ++at_;
            if (at_ == end_ || !is_digit(*at_))
                return give_up();
            while (at_ != end_ && is_digit(*at_))
                ++at_;
        }
        number_.assign(start, at_);   // the strto* functions want a terminated string
        const char* first = number_.c_str();
        const char* last = first + number_.size();
        char* stop = nullptr;
        errno = 0;
        if (whole && !negative) {
            const unsigned long long value = std::strtoull(first, &stop, 10);
            if (errno == 0 && stop == last)
                return stop_if(builder_.unsigned_integer(static_cast<std::uint64_t>(value)));
        } else if (whole) {
            const long long value = std::strtoll(first, &stop, 10);
            if (errno == 0 && stop == last)
                return stop_if(builder_.integer(static_cast<std::int64_t>(value)));
        }
        const double value = std::strtod(first, &stop);
        if (stop != last || !std::isfinite(value))
            return give_up();   // nlohmann reports the overflow
        return stop_if(builder_.floating(value));
    }

    // The string at at_ (at its opening quote). Without escapes it is a piece of the text
    // (`in_text`); with them, it is decoded into decoded_.
    bool read_string(std::string_view& text, bool& in_text) {
        const char* start = ++at_;
        for (;;) {
            at_ = skip_plain_ascii(at_, end_);
            if (at_ == end_)
                return give_up();
            const unsigned char c = static_cast<unsigned char>(*at_);
            if (c == '"') {
                text = std::string_view(start, static_cast<std::size_t>(at_ - start));
                in_text = true;
                ++at_;
                return true;
            }
            if (c == '\\') {
                decoded_.assign(start, at_);
                in_text = false;
                if (!read_escaped_rest())
                    return false;
                text = decoded_;
                return true;
            }
            if (c < 0x20 || !skip_utf8_sequence())
                return give_up();   // control characters must be escaped
        }
    }

    // Bytes that end a run of plain text in a string: a quote, a backslash, a control character,
    // the start of a multi-byte UTF-8 sequence. Eight at a time: strings are most of a bank.
    static bool has_special_byte(std::uint64_t eight) {
        constexpr std::uint64_t ones = 0x0101010101010101ULL;
        constexpr std::uint64_t highs = 0x8080808080808080ULL;
        const auto has_zero = [&](std::uint64_t x) { return (x - ones) & ~x & highs; };
        const std::uint64_t below_space = (eight - ones * 0x20) & ~eight & highs;
        return (has_zero(eight ^ (ones * '"')) | has_zero(eight ^ (ones * '\\')) | below_space |
                (eight & highs)) != 0;
    }

    static const char* skip_plain_ascii(const char* at, const char* end) {
        while (end - at >= 8) {
            std::uint64_t eight = 0;
            std::memcpy(&eight, at, 8);
            if (has_special_byte(eight))
                break;
            at += 8;
        }
        while (at != end) {
            const unsigned char c = static_cast<unsigned char>(*at);
            if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80)
                break;
            ++at;
        }
        return at;
    }

    // The rest of a string that has escapes, from the first backslash, into decoded_.
    bool read_escaped_rest() {
        for (;;) {
            if (at_ == end_)
                return give_up();
            const unsigned char c = static_cast<unsigned char>(*at_);
            if (c == '"') {
                ++at_;
                return true;
            }
            if (c == '\\') {
                if (!read_escape())
                    return false;
                continue;
            }
            if (c < 0x20)
                return give_up();
            if (c < 0x80) {
                decoded_ += static_cast<char>(c);
                ++at_;
                continue;
            }
            const char* sequence = at_;
            if (!skip_utf8_sequence())
                return give_up();
            decoded_.append(sequence, at_);
        }
    }

    bool read_escape() {
        ++at_;   // the backslash
        if (at_ == end_)
            return give_up();
        const char c = *at_++;
        switch (c) {
        case '"': decoded_ += '"'; return true;
        case '\\': decoded_ += '\\'; return true;
        case '/': decoded_ += '/'; return true;
        case 'b': decoded_ += '\b'; return true;
        case 'f': decoded_ += '\f'; return true;
        case 'n': decoded_ += '\n'; return true;
        case 'r': decoded_ += '\r'; return true;
        case 't': decoded_ += '\t'; return true;
        case 'u': break;
        default: return give_up();
        }
        char32_t code_point = 0;
        if (!hex4(code_point))
            return give_up();
        if (code_point >= 0xDC00 && code_point <= 0xDFFF)
            return give_up();   // a low surrogate must follow a high one
        if (code_point >= 0xD800 && code_point <= 0xDBFF) {
            char32_t low = 0;
            if (end_ - at_ < 2 || at_[0] != '\\' || at_[1] != 'u')
                return give_up();
            at_ += 2;
            if (!hex4(low) || low < 0xDC00 || low > 0xDFFF)
                return give_up();
            code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(code_point);
        return true;
    }

    bool hex4(char32_t& value) {
        if (end_ - at_ < 4)
            return false;
        value = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = *at_++;
            int digit = 0;
            if (c >= '0' && c <= '9')
                digit = c - '0';
            else if (c >= 'a' && c <= 'f')
                digit = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                digit = c - 'A' + 10;
            else
                return false;
            value = value * 16 + static_cast<char32_t>(digit);
        }
        return true;
    }

    void append_utf8(char32_t code_point) { imquiz::append_utf8(decoded_, code_point); }

    // One well-formed UTF-8 sequence of 2 to 4 bytes at at_, as nlohmann's lexer checks it.
    bool skip_utf8_sequence() {
        const std::size_t length = utf8_sequence_length(at_, end_);
        if (length < 2)
            return false;
        at_ += length;
        return true;
    }

    const char* at_;
    const char* end_;
    JsonDocumentBuilder& builder_;
    Outcome outcome_ = Outcome::GaveUp;
    std::string decoded_;
    std::string number_;
};

} // namespace

FastReadOutcome read_fast(std::string_view text, JsonDocumentBuilder& builder) {
    return FastReader(text, builder).read();
}

} // namespace imquiz
