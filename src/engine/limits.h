// The bounds the engine holds to whatever it reads. Kept apart from the loaders so that the
// lowest layers (the JSON reader) depend on numbers, not on the bank loader above them.
#pragma once

#include <cstddef>

namespace imquiz {

// Bounds that keep a hostile or broken file from exhausting memory or the stack (the wasm
// module has a small stack and a memory cap).
struct LoadLimits {
    std::size_t max_file_bytes = 16 * 1024 * 1024;
    std::size_t max_text_bytes = 64 * 1024;    // any one JSON string (texts, ids, keys), in bytes
    std::size_t max_questions = 20000;
    std::size_t max_choices_per_question = 26;
    std::size_t max_nesting_depth = 64;        // arrays/objects inside each other
    // Numbers, strings, arrays and objects in one document. A shipped bank has about 50 per
    // question (3 languages); without this, 16 MiB of `0,` is 8 million values, seconds of
    // parsing and hundreds of MB in the wasm module.
    std::size_t max_values = 2'000'000;
    // Languages one bank declares: every translated text is checked against each of them.
    std::size_t max_languages = 100;
    // Reporting stops after this many problems (one more diagnostic says so): a generated file
    // with a systematic mistake should not produce a million lines.
    std::size_t max_diagnostics = 500;
};

} // namespace imquiz
