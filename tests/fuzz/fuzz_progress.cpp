// libFuzzer harness for progress records (engine/progress.h): decode_progress (every version,
// with migration), the store's load/save on a MemoryStore holding the bytes, and import_all.
// Nothing may throw, abort or read out of bounds, and:
//   - a decoded record re-encodes to text that decodes to the same encoding (a fixed point),
//   - the stored bytes are never lost: after load + save they are still in the store, under
//     the record's key or a backup / unreadable key (unless they were read in full),
//   - reconcile_with_bank and merge_progress leave a record that encodes and decodes.
// Built by tests/fuzz/CMakeLists.txt (IMQUIZ_FUZZ=ON, clang-14); run by scripts/fuzz.
#include "engine/bank_loader.h"
#include "engine/progress.h"
#include "engine/storage.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace {

// The bank the stored attempts are checked against (ids match the seed records).
const imquiz::Bank& sample_bank() {
    static const imquiz::Bank bank = [] {
        const char* const json = R"({"format": "imquiz-bank", "version": 1, "id": "sample",
          "title": "Sample", "languages": ["en"], "defaultLanguage": "en",
          "questions": [
            {"id": "capital", "type": "single_choice", "prompt": "Capital of France?",
             "explanation": "Paris.", "choices": [{"id": "paris", "text": "Paris", "correct": true},
             {"id": "lyon", "text": "Lyon"}]},
            {"id": "primes", "type": "multiple_choice", "prompt": "Primes?", "explanation": "2, 3.",
             "choices": [{"id": "two", "text": "2", "correct": true},
             {"id": "three", "text": "3", "correct": true}, {"id": "four", "text": "4"}]},
            {"id": "earth-flat", "type": "true_false", "prompt": "Flat?", "explanation": "No.",
             "answer": false},
            {"id": "pi", "type": "numeric", "prompt": "Pi?", "explanation": "3.14.",
             "answer": {"value": 3.14, "tolerance": 0.005}},
            {"id": "hedgehog", "type": "short_text", "prompt": "Animal?", "explanation": "Hedgehog.",
             "accept": ["hedgehog"]}]})";
        imquiz::BankLoadResult loaded = imquiz::load_bank(json, "sample.json");
        if (!loaded.bank)
            std::abort();
        return *loaded.bank;
    }();
    return bank;
}

void round_trip(const imquiz::ProgressRecord& record) {
    const std::string encoded = imquiz::encode_progress(record);
    const imquiz::ProgressDecodeResult decoded = imquiz::decode_progress(encoded);
    if (!decoded.record || imquiz::encode_progress(*decoded.record) != encoded)
        std::abort();   // what encode_progress writes, decode_progress reads back unchanged
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const imquiz::Bank& bank = sample_bank();

    const imquiz::ProgressDecodeResult decoded = imquiz::decode_progress(text);
    if (decoded.record) {
        round_trip(*decoded.record);
        imquiz::ProgressRecord reconciled = *decoded.record;
        imquiz::reconcile_with_bank(reconciled, bank);
        round_trip(reconciled);
        imquiz::ProgressRecord merged;
        merged.bank_id = decoded.record->bank_id;
        imquiz::merge_progress(merged, reconciled);
        imquiz::merge_progress(merged, *decoded.record);
        round_trip(merged);
        if (reconciled.attempt_in_progress &&
            imquiz::session_matches_bank(*reconciled.attempt_in_progress, bank))
            (void)imquiz::results(*reconciled.attempt_in_progress, bank);
    } else if (decoded.problems.empty() && !decoded.newer_version) {
        std::abort();   // no record without saying why
    }

    imquiz::MemoryStore memory;
    const std::string key = "imquiz.progress.sample";
    memory.set(key, text);
    imquiz::ProgressStore store(memory);
    imquiz::ProgressStore::LoadResult loaded = store.load("sample");
    store.save(loaded.record);
    bool kept = false;
    for (const std::string& stored_key : memory.keys())
        kept = kept || memory.get(stored_key) == std::optional<std::string>(text);
    if (!kept && loaded.status != imquiz::ProgressStore::LoadStatus::Loaded)
        std::abort();   // a record not read in full is backed up or moved aside, never dropped
    // The same bytes as an export file, into the store that now has a record.
    (void)store.import_all(text);
    (void)store.export_all(1);
    return 0;
}
