// Internal to the engine: the byte-level hash behind bank fingerprints, attempt ids and the
// per-question shuffle streams. FNV-1a 64-bit: tiny, and defined on bytes, so identical on every
// platform and standard library (native and wasm must agree).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace imquiz {

class Fnv1a {
public:
    void bytes(const void* data, std::size_t size) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < size; ++i) {
            hash_ ^= p[i];
            hash_ *= 0x100000001b3ULL;
        }
    }
    void integer(std::uint64_t value) {
        unsigned char little_endian[8];
        for (int i = 0; i < 8; ++i)
            little_endian[i] = static_cast<unsigned char>(value >> (8 * i));
        bytes(little_endian, 8);
    }
    // Length-prefixed, so ("ab", "c") and ("a", "bc") differ.
    void text(std::string_view value) {
        integer(value.size());
        bytes(value.data(), value.size());
    }
    void number(double value) {
        if (value == 0)
            value = 0;   // -0.0 and 0.0 are the same answer
        std::uint64_t bits = 0;
        std::memcpy(&bits, &value, sizeof bits);
        integer(bits);
    }
    std::uint64_t value() const { return hash_; }

private:
    std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// 16 lowercase hex digits.
inline std::string to_hex(std::uint64_t value) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string result(16, '0');
    for (int i = 0; i < 16; ++i)
        result[15 - i] = digits[(value >> (4 * i)) & 0xF];
    return result;
}

} // namespace imquiz
