#include "engine/storage.h"

namespace imquiz {

std::optional<std::string> MemoryStore::get(std::string_view key) {
    auto found = values_.find(key);
    if (found == values_.end())
        return std::nullopt;
    return found->second;
}

bool MemoryStore::set(std::string_view key, std::string_view value) {
    if (read_only_)
        return false;
    values_.insert_or_assign(std::string(key), std::string(value));
    return true;
}

bool MemoryStore::remove(std::string_view key) {
    if (read_only_)
        return false;
    auto found = values_.find(key);
    if (found != values_.end())
        values_.erase(found);
    return true;
}

std::vector<std::string> MemoryStore::keys() {
    std::vector<std::string> result;
    result.reserve(values_.size());
    for (const auto& entry : values_)
        result.push_back(entry.first);
    return result;
}

std::optional<std::string> FunctionStore::get(std::string_view key) {
    return functions_.get ? functions_.get(key) : std::nullopt;
}

bool FunctionStore::set(std::string_view key, std::string_view value) {
    return functions_.set && functions_.set(key, value);
}

bool FunctionStore::remove(std::string_view key) {
    return functions_.remove && functions_.remove(key);
}

std::vector<std::string> FunctionStore::keys() {
    return functions_.keys ? functions_.keys() : std::vector<std::string>();
}

} // namespace imquiz
