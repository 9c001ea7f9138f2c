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

// Bounds for learners' progress, so that no file and no history can make the app slow or big.
struct ProgressLimits {
    // A progress export to import, checked before it is read. With kept_finished_attempts per
    // bank, a real export is far below this: 50 attempts of a 20-question bank are about 150 KB.
    // (The audit's 16 MiB file froze the tab for 80 s; 750 KB of problems crashed it.)
    std::size_t max_import_bytes = 4 * 1024 * 1024;
    // Problems an import lists (then one line says how many more there were), each cut to at
    // most this many bytes: a message must never quote megabytes of the file.
    std::size_t max_listed_problems = 20;
    std::size_t max_problem_bytes = 200;
    // Finished attempts a record keeps in full, the most recent ones; older ones are pruned on
    // every save and import. Best score, attempt count and question statistics still count
    // them. Every save decodes and re-encodes the record: 20,000 attempts made each answer take
    // 2.6 s in the browser.
    std::size_t kept_finished_attempts = 50;
};

} // namespace imquiz
