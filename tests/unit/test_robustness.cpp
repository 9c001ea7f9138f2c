// Hostile and broken input never throws, aborts or crashes: thousands of deterministic
// mutations of a valid bank and of a progress record go through every entry point. (A throw
// would abort the wasm module; the engine is built with -fno-exceptions.)
#include "engine_test_support.h"

#include "engine/progress.h"
#include "engine/session.h"

#include <catch2/catch.hpp>

#include <cstdint>

using namespace imquiz;

namespace {

// Small deterministic generator for the mutations (splitmix64).
class Mutator {
public:
    explicit Mutator(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t bound) { return bound == 0 ? 0 : next() % bound; }

    std::string mutate(std::string text) {
        static const char* const pieces[] = {"{", "}", "[", "]", ",", ":", "\"", "null", "true",
                                             "-1", "1e999", "\\u0000", "\xFF", "\xD0", "0.5",
                                             "\"correct\": true", "\"id\": \"x\"", "{}", "[]"};
        const int edits = 1 + static_cast<int>(below(4));
        for (int i = 0; i < edits && !text.empty(); ++i) {
            const std::size_t at = below(text.size());
            switch (below(5)) {
            case 0: text.erase(at, 1 + below(8)); break;
            case 1: text.insert(at, pieces[below(sizeof pieces / sizeof *pieces)]); break;
            case 2: text[at] = static_cast<char>(next()); break;
            case 3: text.insert(at, text.substr(below(text.size()), below(40))); break;
            default: text.resize(at); break;
            }
        }
        return text;
    }

private:
    std::uint64_t state_;
};

} // namespace

TEST_CASE("mutated banks never crash the loader", "[robustness]") {
    const std::string original = testing::bank_json(testing::five_questions);
    Mutator mutator(2024);
    int loaded = 0;
    for (int i = 0; i < 3000; ++i) {
        const std::string text = mutator.mutate(original);
        const BankLoadResult result = load_bank(text, "fuzz.json");
        // Either a bank, or at least one error explaining why not.
        CHECK((result.bank.has_value() || has_errors(result.diagnostics)));
        validate_document(text, "fuzz.json");
        load_catalog(text, "fuzz.json");
        if (result.bank) {
            ++loaded;
            // A bank that loads can be played through with arbitrary input.
            Session session = start_session(*result.bank, static_cast<std::uint64_t>(i));
            while (!is_finished(session)) {
                check(session, *result.bank, Response::typed(text.substr(0, 10)), i);
                check(session, *result.bank, Response::choices({"paris", "two"}), i);
                next(session, i);
            }
            results(session, *result.bank);
        }
    }
    CHECK(loaded > 0);   // some mutations keep the bank valid (e.g. inside a text)
}

TEST_CASE("mutated progress records never crash the decoder or the store", "[robustness]") {
    const Bank bank = testing::load_valid_bank(testing::bank_json(testing::five_questions));
    ProgressRecord record;
    record.bank_id = "sample";
    Session session = start_session(bank, 1);
    check(session, bank, Response::choices({"lyon"}), 1);
    next(session, 2);
    check(session, bank, Response::choices({"two"}), 3);
    record.attempt_in_progress = session;
    while (!is_finished(session))
        next(session, 4);
    record_finished_attempt(record, session, bank, 5);
    record.attempt_in_progress = start_session(bank, 2);
    const std::string original = encode_progress(record);

    Mutator mutator(7);
    for (int i = 0; i < 3000; ++i) {
        const std::string text = mutator.mutate(original);
        const ProgressDecodeResult decoded = decode_progress(text);
        if (decoded.record) {
            ProgressRecord copy = *decoded.record;
            reconcile_with_bank(copy, bank);
            merge_progress(copy, record);
            encode_progress(copy);
            if (copy.attempt_in_progress && session_matches_bank(*copy.attempt_in_progress, bank))
                results(*copy.attempt_in_progress, bank);
        } else {
            CHECK_FALSE(decoded.problems.empty());
        }
        MemoryStore memory;
        memory.set("imquiz.progress.sample", text);
        ProgressStore store(memory);
        const auto loaded = store.load("sample");
        store.save(loaded.record);
        store.import_all(text);
        // The original text is never lost: still in place, or kept under another key.
        bool kept = false;
        for (const std::string& key : memory.keys())
            kept = kept || memory.get(key) == std::optional<std::string>(text);
        CHECK((kept || decoded.record.has_value()));
    }
}
