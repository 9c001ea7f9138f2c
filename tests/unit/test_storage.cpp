// The key-value store interface the engine persists through, its in-memory implementation, and
// the adapter over a platform's plain storage functions.
#include "engine/progress.h"
#include "engine/storage.h"

#include <catch2/catch.hpp>

using imquiz::FunctionStore;
using imquiz::MemoryStore;
using imquiz::StorageFunctions;

TEST_CASE("MemoryStore", "[storage]") {
    MemoryStore store;
    SECTION("set, get, overwrite") {
        CHECK_FALSE(store.get("a"));
        CHECK(store.set("a", "1"));
        CHECK(store.get("a") == std::optional<std::string>("1"));
        CHECK(store.set("a", "2"));
        CHECK(store.get("a") == std::optional<std::string>("2"));
    }
    SECTION("empty values and binary-safe keys") {
        CHECK(store.set("", ""));
        CHECK(store.get("") == std::optional<std::string>(""));
        CHECK(store.set(std::string_view("k\0ey", 4), "v"));
        CHECK(store.get(std::string_view("k\0ey", 4)) == std::optional<std::string>("v"));
        CHECK_FALSE(store.get("k"));
    }
    SECTION("remove: true when the key is gone afterwards") {
        store.set("a", "1");
        CHECK(store.remove("a"));
        CHECK_FALSE(store.get("a"));
        CHECK(store.remove("never-there"));
    }
    SECTION("keys, sorted") {
        store.set("b", "");
        store.set("a", "");
        store.set("c", "");
        store.remove("c");
        CHECK(store.keys() == std::vector<std::string>{"a", "b"});
    }
    SECTION("read-only, like a full localStorage") {
        store.set("a", "1");
        store.set_read_only(true);
        CHECK_FALSE(store.set("a", "2"));
        CHECK_FALSE(store.remove("a"));
        CHECK(store.get("a") == std::optional<std::string>("1"));
    }
}

namespace {

// What a platform layer would offer: free functions over its own storage (here a MemoryStore).
MemoryStore platform_values;
std::optional<std::string> platform_get(std::string_view key) { return platform_values.get(key); }
bool platform_set(std::string_view key, std::string_view value) {
    return platform_values.set(key, value);
}
bool platform_remove(std::string_view key) { return platform_values.remove(key); }
std::vector<std::string> platform_keys() { return platform_values.keys(); }

}  // namespace

TEST_CASE("FunctionStore: a KeyValueStore over plain get/set/remove/keys functions", "[storage]") {
    platform_values = MemoryStore();
    FunctionStore store({platform_get, platform_set, platform_remove, platform_keys});
    SECTION("every call reaches the functions") {
        CHECK(store.set("a", "1"));
        CHECK(platform_values.get("a") == std::optional<std::string>("1"));
        CHECK(store.get("a") == std::optional<std::string>("1"));
        CHECK(store.keys() == std::vector<std::string>{"a"});
        CHECK(store.remove("a"));
        CHECK_FALSE(platform_values.get("a"));
    }
    SECTION("a refusal comes back as a refusal") {
        platform_values.set("a", "1");
        platform_values.set_read_only(true);
        CHECK_FALSE(store.set("a", "2"));
        CHECK_FALSE(store.remove("a"));
        CHECK(store.get("a") == std::optional<std::string>("1"));
    }
    SECTION("progress is stored through it") {
        imquiz::ProgressStore progress(store);
        imquiz::ProgressRecord record;
        record.bank_id = "sample";
        record.best_percent = 75;
        CHECK(progress.save(record) == imquiz::ProgressStore::SaveStatus::Saved);
        CHECK(platform_values.get("imquiz.progress.sample"));
        CHECK(progress.load("sample").record.best_percent == std::optional<double>(75));
    }
    SECTION("missing functions behave as storage that refuses") {
        FunctionStore empty(StorageFunctions{});
        CHECK_FALSE(empty.get("a"));
        CHECK_FALSE(empty.set("a", "1"));
        CHECK_FALSE(empty.remove("a"));
        CHECK(empty.keys().empty());
    }
}
