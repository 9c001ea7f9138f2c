// The key-value store interface the engine persists through, and its in-memory implementation.
#include "engine/storage.h"

#include <catch2/catch.hpp>

using imquiz::MemoryStore;

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
