// JSON written straight into a string: the page protocol's state document, xAPI statements,
// settings. Why not nlohmann's json objects, as the engine uses: built as trees, these documents
// made the wasm 11 KB (raw) bigger than the same texts written here (every initializer-list
// field is code of its own), and the state of a 20,000-question results screen would be a tree
// of 20,000 rows per change. Strings still go through nlohmann's own escaping.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace imquiz::app {

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
    JsonWriter& string(const std::string& text) {
        separate();
        out_ += nlohmann::ordered_json(text).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
        return *this;
    }
    JsonWriter& boolean(bool value) { return raw(value ? "true" : "false"); }
    JsonWriter& null() { return raw("null"); }
    JsonWriter& number(double value) {
        if (!std::isfinite(value)) return null();  // JSON has no NaN or infinity
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.15g", value);
        return raw(buffer);
    }
    JsonWriter& integer(long long value) { return raw(std::to_string(value).c_str()); }
    JsonWriter& strings(const std::vector<std::string>& values) {
        begin_array();
        for (const auto& value : values) string(value);
        return end_array();
    }
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
        first_.push_back(true);
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
        first_.back() = false;
    }

    std::string out_;
    std::vector<bool> first_;
    bool after_key_ = false;
};

}  // namespace imquiz::app
