// JSON written straight into a string, in the order the caller writes it: progress records, the
// page protocol's state document, xAPI statements, settings. Why not nlohmann's json objects: built
// as trees these documents cost more code (every initializer-list field is code of its own) and
// time (an object's members are found by linear search, so a record's questionStats of 20,000
// questions took 4 s to build in the browser), and the state of a 20,000-question results screen
// would be a tree of 20,000 rows per change. The output is what nlohmann's dump(-1) writes for the
// same values: compact, UTF-8 unescaped, ill-formed UTF-8 replaced by U+FFFD.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz {

class JsonValue;

class JsonWriter {
public:
    JsonWriter& begin_object() { return open('{'); }
    JsonWriter& end_object() { return close('}'); }
    JsonWriter& begin_array() { return open('['); }
    JsonWriter& end_array() { return close(']'); }
    // `name` is one of ours (plain ASCII, nothing to escape).
    JsonWriter& key(const char* name) {
        separate();
        out_ += '"';
        out_ += name;
        out_ += "\":";
        after_key_ = true;
        return *this;
    }
    // A key that comes from data (a question id in a record's questionStats).
    JsonWriter& key(std::string_view name);
    JsonWriter& string(std::string_view text);
    JsonWriter& boolean(bool value) { return raw(value ? "true" : "false"); }
    JsonWriter& null() { return raw("null"); }
    // The shortest text that reads back as the same double; integral values keep a ".0" (as
    // nlohmann writes them); NaN and infinities, which JSON lacks, are null.
    JsonWriter& number(double value);
    JsonWriter& integer(std::int64_t value) { return raw(std::to_string(value).c_str()); }
    JsonWriter& unsigned_integer(std::uint64_t value) { return raw(std::to_string(value).c_str()); }
    JsonWriter& strings(const std::vector<std::string>& values) {
        begin_array();
        for (const auto& value : values) string(value);
        return end_array();
    }
    // A value read from a document, written back as it was (a progress export's records).
    JsonWriter& value(const JsonValue& value);
    // A value that is already JSON (made by the caller).
    JsonWriter& raw(const char* json) {
        separate();
        out_ += json;
        return *this;
    }
    std::string take() { return std::move(out_); }

private:
    JsonWriter& open(char bracket) {
        separate();
        out_ += bracket;
        first_.push_back(1);
        return *this;
    }
    JsonWriter& close(char bracket) {
        out_ += bracket;
        first_.pop_back();
        return *this;
    }
    void separate() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (first_.empty()) return;
        if (!first_.back()) out_ += ',';
        first_.back() = 0;
    }
    void quoted(std::string_view text);

    std::string out_;
    // Per open object or array: nothing written in it yet. A string, not a vector<bool>: the
    // bit vector's push_back alone was 1.8 KB of the app's wasm.
    std::string first_;
    bool after_key_ = false;
};

}  // namespace imquiz
