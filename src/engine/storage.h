// Where progress and settings are kept: localStorage on the web, a file or memory elsewhere.
// The engine only sees this interface. A platform need not know it: it offers four plain
// functions (StorageFunctions) and the app wraps them in a FunctionStore.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz {

class KeyValueStore {
public:
    virtual ~KeyValueStore() = default;
    virtual std::optional<std::string> get(std::string_view key) = 0;
    // False when the value could not be stored (quota exceeded, storage disabled).
    virtual bool set(std::string_view key, std::string_view value) = 0;
    // True when the key is gone afterwards (also when it never existed).
    virtual bool remove(std::string_view key) = 0;
    virtual std::vector<std::string> keys() = 0;
};

// Storage as a platform layer offers it: plain functions, no engine type in their signatures.
struct StorageFunctions {
    std::optional<std::string> (*get)(std::string_view key) = nullptr;
    bool (*set)(std::string_view key, std::string_view value) = nullptr;
    bool (*remove)(std::string_view key) = nullptr;
    std::vector<std::string> (*keys)() = nullptr;
};

// A KeyValueStore over StorageFunctions. A function left null behaves as storage that refuses:
// get finds nothing, set and remove fail, keys is empty.
class FunctionStore final : public KeyValueStore {
public:
    explicit FunctionStore(StorageFunctions functions) : functions_(functions) {}
    std::optional<std::string> get(std::string_view key) override;
    bool set(std::string_view key, std::string_view value) override;
    bool remove(std::string_view key) override;
    std::vector<std::string> keys() override;

private:
    StorageFunctions functions_;
};

// In memory, sorted by key: for tests and for a browser with storage disabled.
class MemoryStore final : public KeyValueStore {
public:
    std::optional<std::string> get(std::string_view key) override;
    bool set(std::string_view key, std::string_view value) override;
    bool remove(std::string_view key) override;
    std::vector<std::string> keys() override;

    // Tests: make set() fail as a full localStorage would.
    void set_read_only(bool read_only) { read_only_ = read_only; }

private:
    std::map<std::string, std::string, std::less<>> values_;
    bool read_only_ = false;
};

} // namespace imquiz
